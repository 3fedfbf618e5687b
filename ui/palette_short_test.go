package ui

import (
	"strings"
	"testing"
)

// The palette takes kill, status and restart, the words of the footer's
// keys, as the short forms of /job-kill, /job-status and /job-restart:
// they run, Tab completes them and their job argument, and the hint and
// /help name them.
func TestPaletteShortForms(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3)
	h := newHarness(t, c, 120, 40, Options{})

	h.command("kill 0")
	if h.m.palette != nil || len(c.killed) != 1 || c.killed[0] != "0" {
		t.Fatalf("kill 0: palette %v, Kill calls %q; want job 0 killed\n%s", h.m.palette != nil, c.killed, h.footer(2))
	}
	h.command("status 1")
	if len(c.statused) == 0 || c.statused[len(c.statused)-1] != "1" {
		t.Fatalf("status 1: Status calls %q\n%s", c.statused, h.footer(2))
	}
	h.press("esc") // close the report
	h.command("RESTART 1")
	if len(c.restarts) != 1 || c.restarts[0] != "1" {
		t.Fatalf("RESTART 1: Restart calls %q\n%s", c.restarts, h.footer(2))
	}
	h.command("kill")
	if h.m.palette == nil || !strings.Contains(h.footer(2), "job-kill needs a job ID or name") {
		t.Fatalf("kill without a job:\n%s", h.footer(2))
	}
	h.press("esc")

	for _, s := range []struct{ typed, want string }{
		{"/ki", "/kill "},
		{"/sta", "/status "},
		{":res", ":restart "},
		{"/kill fl", "/kill flood"},
	} {
		h.press(string(s.typed[0]))
		h.typeText(s.typed[1:])
		h.press("tab")
		if got := h.m.palette.value(); got != s.want {
			t.Errorf("%q + Tab = %q, want %q", s.typed, got, s.want)
		}
		h.press("esc")
	}

	h.press("/")
	h.typeText("kill ")
	if f := h.footer(2); !strings.Contains(f, "/job-kill <id|name>") {
		t.Errorf("the hint for kill should be /job-kill's usage:\n%s", f)
	}
	h.press("esc")
	h.command("help")
	if s := h.screen(); !strings.Contains(s, "(short: kill)") || !strings.Contains(s, "(short: status)") {
		t.Errorf("/help should name the short forms:\n%s", s)
	}
}
