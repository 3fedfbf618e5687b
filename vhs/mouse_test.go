//go:build unix

package vhs

import (
	"errors"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
)

// TestParseMouse reads SGR mouse reports into events (1-based cells in,
// 0-based out) and refuses what no terminal sends.
func TestParseMouse(t *testing.T) {
	t.Parallel()
	good := []struct {
		in   string
		want uv.MouseEvent
	}{
		{"[<65;40;12M", uv.MouseWheelEvent{X: 39, Y: 11, Button: uv.MouseWheelDown}},
		{"[<64;1;1M", uv.MouseWheelEvent{X: 0, Y: 0, Button: uv.MouseWheelUp}},
		{"[<0;10;5M", uv.MouseClickEvent{X: 9, Y: 4, Button: uv.MouseLeft}},
		{"[<0;10;5m", uv.MouseReleaseEvent{X: 9, Y: 4, Button: uv.MouseLeft}},
		{"[<6;3;3M", uv.MouseClickEvent{X: 2, Y: 2, Button: uv.MouseRight, Mod: uv.ModShift}},
		{"[<32;7;8M", uv.MouseMotionEvent{X: 6, Y: 7, Button: uv.MouseLeft}},
		{"[<81;2;2M", uv.MouseWheelEvent{X: 1, Y: 1, Button: uv.MouseWheelDown, Mod: uv.ModCtrl}},
	}
	for _, g := range good {
		got, err := parseMouse(g.in, 80, 24)
		if err != nil || got != g.want {
			t.Errorf("parseMouse(%q) = %#v, %v; want %#v", g.in, got, err, g.want)
		}
	}
	for _, bad := range []string{"[<65;40M", "[<65;0;5M", "[<65;81;5M", "[<65;5;25M", "[<130;5;5M", "[<65;5;5X", "[<a;5;5M"} {
		if _, err := parseMouse(bad, 80, 24); !errors.Is(err, ErrBadValue) {
			t.Errorf("parseMouse(%q): %v, want ErrBadValue", bad, err)
		}
	}
}

// TestMouseStepsParse: Escape then a Type of a report is one mouse step;
// a bad report after Escape fails the tape; Escape then other text stays
// an Escape and a Type.
func TestMouseStepsParse(t *testing.T) {
	t.Parallel()
	if _, err := ParseTape("bad", header80x24+"Escape\nType \"[<65;99;5M\"\n"); !errors.Is(err, ErrBadValue) || !strings.Contains(err.Error(), "outside the 80×24 screen") {
		t.Errorf("a report outside the screen: %v", err)
	}
	tp, err := ParseTape("good", header80x24+"Escape\nType \"[<65;9;5M\"\nEscape\nType \"hello\"\n")
	if err != nil {
		t.Fatal(err)
	}
	cols, rows := tp.Cells()
	if _, ok, err := mouseStep(tp.Steps, 0, cols, rows); !ok || err != nil {
		t.Errorf("Escape + report: mouse step %v, %v", ok, err)
	}
	if _, ok, err := mouseStep(tp.Steps, 2, cols, rows); ok || err != nil {
		t.Errorf("Escape + text: mouse step %v, %v; want a plain Escape", ok, err)
	}
}

// TestMouseReplay replays a mouse step into a program: one that turned
// on SGR mouse reporting reads the report a terminal sends; one that did
// not gets nothing (the negative control: a terminal sends no mouse
// reports to a program that did not ask for them).
func TestMouseReplay(t *testing.T) {
	t.Parallel()
	snaps, err := runInline(t, "Type `stty raw -echo; printf '\\e[?1002h\\e[?1006hready-on\\r\\n'; IFS= read -r -d M -t 5 x; printf '\\e[?1002l\\e[?1006l'; stty sane; echo; echo \"got:${x:1}M\"`\n"+
		"Enter\nWait+Screen /\\nready-on/\nEscape\nType@0ms \"[<65;5;3M\"\nWait+Screen /\\ngot:/\nScreenshot on.png\n"+
		"Type `stty raw -echo; printf 'ready-off\\r\\n'; IFS= read -r -t 1 -n 1 x; stty sane; echo \"none:[$x]\"`\n"+
		"Enter\nWait+Screen /\\nready-off/\nEscape\nType@0ms \"[<65;5;3M\"\nWait+Screen /\\nnone:/\nScreenshot off.png\n")
	if err != nil {
		t.Fatal(err)
	}
	on, off := strings.Join(snaps[0].Lines, "\n"), strings.Join(snaps[1].Lines, "\n")
	if !strings.Contains(on, "got:[<65;5;3M") {
		t.Errorf("a program with mouse reporting on should read the wheel's report:\n%s", on)
	}
	if !strings.Contains(off, "none:[]") {
		t.Errorf("a program without mouse reporting should read nothing:\n%s", off)
	}
}
