// Package vhs replays the VHS tapes in this directory as tests: one tape per
// user story, in real VHS syntax (github.com/charmbracelet/vhs v0.10.0), so
// the same file parses with VHS's own parser, renders to a GIF with real VHS,
// and runs headlessly here.
//
// A replay (Tape.Run) parses the tape with VHS's lexer and parser, then
// rejects what that lenient parser lets through but VHS would reject or
// ignore (ParseTape). It starts bash in a pseudo-terminal (creack/pty) whose
// output drives an x/vt emulator, waits for the first prompt, types the
// tape's keys through the emulator (so terminal modes pick the bytes), and at
// each Screenshot waits for the screen to settle and records its text. The
// test in tapes_test.go compares every Screenshot with a golden file,
// testdata/<tape>/<screenshot>.golden, with elapsed times ("0:03") read as
// "m:ss" on both sides (NormalizeGolden); `go test ./vhs -update` rewrites
// them.
//
// TestPictures draws chosen screenshots, with their colours, as the SVG
// pictures under docs/img/ (Picture), and fails when one is stale.
//
// Set Width and Height stay pixels, as in VHS; Settings.Cells maps them to
// the terminal grid with one rule modelled on real VHS (see README.md).
//
// Guarantees: the shell gets a fixed environment (TERM=xterm-256color,
// LANG=C.UTF-8, PS1="> ", no NO_COLOR, a private HOME), so goldens do not
// depend on the developer's settings; at the end of every tape the shell's
// session is hung up and anything left in it is killed (Term.Close), so no
// process outlives the test. The package never touches the network, and it
// is test support only: jobdeck's binary does not import it.
package vhs
