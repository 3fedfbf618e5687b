package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestPasteWithCarriageReturns: a pasted script whose lines a terminal
// sent as \r (tmux, xterm) is refused like one with \n, never run joined.
func TestPasteWithCarriageReturns(t *testing.T) {
	t.Parallel()
	for _, paste := range []string{"echo one\recho two\r", "echo one\necho two\n", "echo one\r\necho two", "rm -rf build\rls"} {
		c := fixtureCore(1)
		h := newHarness(t, c, 120, 40, Options{})
		h.press("/")
		h.typeText("background ")
		h.send(tea.PasteMsg{Content: paste})
		if !strings.Contains(h.footer(3), "the pasted text has 2 lines") {
			t.Errorf("paste %q: footer:\n%s", paste, h.footer(3))
		}
		h.press("enter")
		if len(c.started) > 0 {
			t.Errorf("paste %q ran %q", paste, c.started)
		}
	}
	if pastedLines("one line\r") != 1 || pastedLines("x") != 1 {
		t.Error("a line with its own line break, or none, is one line")
	}
}
