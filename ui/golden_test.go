package ui

import (
	"fmt"
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
// the stderr tint and the dropped-lines marker reach the screen as SGR and
// nothing else does.
func TestGoldenANSI(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fixtureCore(3), 120, 40, Options{})
	checkGolden(t, "view_120x40_3jobs.ansi.golden", h.m.View().Content+"\n")
}
