package ui

import (
	"fmt"
	"strings"
	"testing"
)

// TestGolden compares the screen, as text, with golden files at three
// terminal sizes for 0, 1, 3 and 8 jobs. The fixtures hold colours, stderr
// lines, a partial prompt, hostile escapes and a ring that dropped lines.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		for _, n := range []int{0, 1, 3, 8} {
			name := fmt.Sprintf("view_%dx%d_%djobs", size[0], size[1], n)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, fixtureCore(n), size[0], size[1], Options{})
				checkGolden(t, name+".golden", h.screen())
			})
		}
	}
}

// TestGoldenANSI keeps the escape sequences, to prove that job colours,
// the stderr mark and the dropped-lines marker reach the screen as SGR and
// nothing else does.
func TestGoldenANSI(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fixtureCore(3), 120, 40, Options{})
	checkGolden(t, "view_120x40_3jobs.ansi.golden", h.m.View().Content+"\n")
}

// TestColoursAndTint checks the SGR of a pane: the job's own colours are
// kept, stderr lines carry the tinted "!" mark and their own colours (the
// text itself is not painted), and the dropped marker is styled.
func TestColoursAndTint(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fixtureCore(1), 120, 40, Options{})
	v := h.m.View().Content
	st := h.m.st
	want := []string{
		"\x1b[32m\x1b[1mVITE\x1b[22m v5.0.0\x1b[39m",          // the job's colours, normalised by sanitize
		st.rendered.errMark + " (!) \x1b[33mwarning:\x1b[39m", // the mark tinted, the text not
		st.rendered.errMark + " Error: \x1b[31mECONNREFUSED\x1b[m 127.0.0.1:5432",
		st.rendered.droppedOpen + "[… 1234 lines dropped]",
	}
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Errorf("view lacks %q", w)
		}
	}
	if red := "\x1b[91m"; strings.Contains(v, red) {
		t.Errorf("a stderr line's text is painted (%q): only its mark should be", red)
	}
}
