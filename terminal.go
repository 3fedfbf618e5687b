//go:build unix

package main

import (
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"
)

// checkTerminal tells whether the console can have a terminal: stdin is
// one, or /dev/tty opens (Bubble Tea's own fallback). It is asked before
// anything starts, so that a console run without a terminal (from a
// script, a cron job, a pipe) starts no session and no job; the error says
// what to run instead.
func checkTerminal(stdin io.Reader) error {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(f.Fd()) {
		return nil
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("the console needs a terminal, and this jobdeck has none (stdin is not one; /dev/tty: %v): run it in a terminal, or run jobdeck --serve for an agent", err)
	}
	tty.Close()
	return nil
}
