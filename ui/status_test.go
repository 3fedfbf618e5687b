package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// TestWrapText: words stay whole where they fit, a word longer than a row
// is broken, a first row too short for anything is left empty, and rows
// past the bound end in "…".
func TestWrapText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s           string
		first, rest int
		max         int
		want        []string
	}{
		{"short", 10, 10, 0, []string{"short"}},
		{"one two three four", 8, 10, 0, []string{"one two", "three four"}},
		{"abcdefghijklmnop xy", 5, 6, 0, []string{"abcde", "fghijk", "lmnop", "xy"}},
		{"a b", 0, 5, 0, []string{"", "a b"}},
		{"one two three four five six", 8, 8, 2, []string{"one two", "three f…"}},
		{"ünï cödé wörds", 4, 5, 0, []string{"ünï", "cödé", "wörds"}},
	} {
		if got := wrapText(c.s, c.first, c.rest, c.max); !slices.Equal(got, c.want) {
			t.Errorf("wrapText(%q, %d, %d, %d) = %q, want %q", c.s, c.first, c.rest, c.max, got, c.want)
		}
	}
}

// longLimit is a refusal as long as the core's limit error gets.
var longLimit = fmt.Errorf("%w: 8 jobs are running, the limit: job 0 npm run dev; job 2 (flood) yes 'all work and no play' | nl; job 3 (py) python3 -i; "+
	"job 5 sh -c 'sleep 1000 & echo spawned'; job 7 (watch) cargo watch -x check; stop one before starting another", model.ErrLimit)

// TestGoldenLongMessage: a status message longer than the screen is wide
// wraps onto more footer rows (the panes give way), at three sizes.
func TestGoldenLongMessage(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		name := fmt.Sprintf("view_%dx%d_longmessage", size[0], size[1])
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := fixtureCore(3)
			c.startErr = longLimit
			h := newHarness(t, c, size[0], size[1], Options{Launch: []model.Spec{{Command: "npm test"}}})
			got := h.status()
			whole := strings.Contains(got, "stop one before starting another (x stops the selected job, /job-kill any job)")
			if size[1] >= 40 != whole || !whole && !strings.HasSuffix(got, "… ? shows all") {
				t.Errorf("the whole message on screen from 40 rows on, else as much as two rows hold and what shows it all:\n%s", got)
			}
			checkGolden(t, name+".golden", h.screen())
		})
	}
}

// TestRecentMessages: ? lists the last messages in full, with their
// times, under the full help; a message repeated is listed once.
func TestRecentMessages(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3)
	c.startErr = longLimit
	h := newHarness(t, c, 120, 40, Options{Launch: []model.Spec{{Command: "npm test"}}})
	h.press("j", "x", "x") // "job 1 is over …; nothing to stop", twice
	h.press("?")
	s := h.screen()
	for _, want := range []string{"recent messages:", "12:01:15 too many running jobs: 8 jobs are running, the limit:", "stop one before starting another (x stops the selected job, /job-kill any job)", "12:01:15 job 1 is over (exited 1); nothing to stop"} {
		if !strings.Contains(s, want) {
			t.Errorf("the full help should list %q:\n%s", want, s)
		}
	}
	if n := strings.Count(s, "nothing to stop"); n != 1 {
		t.Errorf("a repeated message is listed %d times, want once", n)
	}
	checkGolden(t, "view_120x40_recentmessages.golden", s)
	h.press("?")
	if strings.Contains(h.screen(), "recent messages") {
		t.Error("? again should hide the list")
	}
}

// TestPaletteErrorWraps: a palette error longer than the screen wraps
// under the input instead of being cut.
func TestPaletteErrorWraps(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3)
	h := newHarness(t, c, 80, 24, Options{})
	c.startErr = longLimit
	h.command("background npm test")
	if got := h.status(); !strings.Contains(got, "job 3 (py) python3 -i;") || strings.Contains(got, "…") {
		t.Errorf("the palette's error should wrap, not be cut:\n%s", h.footer(4))
	}
}
