//go:build unix

package vhs

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
)

// sizeJob prints the size of its terminal as tput sees it, at start and
// after every SIGWINCH: "cols=N lines=M" (tput writes to the pty itself,
// so it asks the pty, not its terminfo entry) and "sub=N", tput's columns
// inside $(…), where its stdout is a pipe and it asks stderr's pty. The
// trap only raises a flag that the loop reports on: bash drops a signal
// that comes while its own trap runs, so a report inside the trap would
// miss a resize that follows the one before it quickly.
const sizeJob = `report() { printf 'cols='; tput cols; printf 'lines='; tput lines; echo "sub=$(tput cols)"; }; trap 'winch=1' WINCH; report; while :; do if [ -n "$winch" ]; then winch=; report; fi; sleep 0.1; done`

// focusedPane returns the text area of the focused (thick-bordered) pane
// on screen: its width less the borders and the two-cell gutter, and its
// height less the borders.
func focusedPane(lines []string) (cols, rows int, ok bool) {
	top, left, right := -1, -1, -1
	for y, l := range lines {
		r := []rune(l)
		for x, c := range r {
			switch {
			case c == '┏' && top < 0:
				top, left = y, x
			case c == '┓' && y == top:
				right = x
			case c == '┗' && top >= 0 && x == left:
				return right - left + 1 - 4, y - top - 1, right > left
			}
		}
	}
	return 0, 0, false
}

// waitPaneFits polls term's screen until there is a focused pane and
// fits, given the screen and that pane's text area (cols×rows), says the
// job's last report matches it; it returns that area and the report
// (fits' words for it). After timeout it fails the test with the report,
// the area and the screen.
func waitPaneFits(t *testing.T, term *Term, when string, timeout time.Duration, fits func(screen string, cols, rows int) (report string, ok bool)) (cols, rows int, report string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		lines := term.Lines()
		cols, rows, found := focusedPane(lines)
		report, ok := fits(strings.Join(lines, "\n"), cols, rows)
		if found && ok {
			return cols, rows, report
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %s, the focused pane's text area is %d×%d (found %v):\n%s", when, report, cols, rows, found, frame(lines))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// lastReport returns the last "cols=", "lines=" and "sub=" values a
// sizeJob printed on screen.
func lastReport(screen string) (cols, lines, sub string) {
	for _, m := range regexp.MustCompile(`(cols|lines|sub)=(\d+)`).FindAllStringSubmatch(screen, -1) {
		switch m[1] {
		case "cols":
			cols = m[2]
		case "lines":
			lines = m[2]
		default:
			sub = m[2]
		}
	}
	return cols, lines, sub
}

// TestJobTerminalFitsItsPane runs the real jobdeck in a terminal with a
// job that reports its size with tput: it starts at its pane's size (not
// the 160×40 default), and after the terminal is resized (the list moves
// beside the panes) and after a zoom, tput inside the job prints the
// pane's new text width and height: the pty was resized and the job got
// SIGWINCH; `$(tput cols)`, which asks stderr, says the same width: stderr
// is a pty of the same size.
func TestJobTerminalFitsItsPane(t *testing.T) {
	t.Parallel()
	needPrograms(t, "tput")
	term := startShell(t, 100, 30)
	typeLine(term, "jobdeck -- "+shellQuote(sizeJob)+" 'sleep 300'")
	waitScreen(t, term, "Screen", `cols=\d+`, 15*time.Second)
	// Each step changes the focused pane's size: wait for the new layout
	// on screen and for tput to print it.
	last := ""
	matches := func(when string) {
		t.Helper()
		cols, rows, report := waitPaneFits(t, term, when, 10*time.Second, func(screen string, cols, rows int) (string, bool) {
			gotC, gotL, gotS := lastReport(screen)
			fits := fmt.Sprintf("%d×%d", cols, rows) != last && cols != 160 && gotC == fmt.Sprint(cols) && gotL == fmt.Sprint(rows) && gotS == gotC
			return fmt.Sprintf("tput says cols=%s lines=%s sub=%s", gotC, gotL, gotS), fits
		})
		t.Logf("%s: %s, the pane's text area", when, report)
		last = fmt.Sprintf("%d×%d", cols, rows)
	}
	matches("at start, 100×30")
	if s := term.Screen(); strings.Contains(s, "cols=160") {
		t.Errorf("the job started at the default 160 columns, then was resized:\n%s", s)
	}
	if err := term.Resize(140, 40); err != nil {
		t.Fatal(err)
	}
	matches("resized to 140×40")
	term.SendText("z")
	matches("zoomed")
	term.SendText("z")
	matches("unzoomed")
	term.SendText("q")
	term.SendKey(uv.KeyPressEvent{Code: 'y'})
	waitScreen(t, term, "Line", `>$`, 15*time.Second)
}
