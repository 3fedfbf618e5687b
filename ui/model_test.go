package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/jobdeck/jobdeck/model"
)

// TestViewShape checks that every screen has exactly the terminal's rows,
// each exactly as wide as the terminal, for many sizes and job counts,
// and that a terminal below the minimum gets the plain message.
func TestViewShape(t *testing.T) {
	t.Parallel()
	sizes := [][2]int{{40, 12}, {41, 13}, {80, 24}, {99, 30}, {110, 30}, {120, 40}, {157, 41}, {200, 60}, {300, 90}}
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 11} {
		for _, sz := range sizes {
			t.Run(fmt.Sprintf("%dx%d_%d", sz[0], sz[1], n), func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, fixtureCore(n), sz[0], sz[1], Options{})
				for _, ks := range [][]string{nil, {"z"}, {"z", "?"}, {"/"}} {
					h.press(ks...)
					checkShape(t, h.m.View().Content, sz[0], sz[1])
				}
			})
		}
	}
	for _, sz := range [][2]int{{39, 30}, {100, 11}, {10, 3}} {
		h := newHarness(t, fixtureCore(3), sz[0], sz[1], Options{})
		if got := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(got, "small") {
			t.Errorf("%v: want the too-small message, got\n%s", sz, got)
		}
		checkShape(t, h.m.View().Content, sz[0], sz[1])
	}
}

func checkShape(t *testing.T, content string, w, h int) {
	t.Helper()
	lines := strings.Split(content, "\n")
	if len(lines) != h {
		t.Fatalf("%d rows, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("row %d is %d cells wide, want %d: %q", i, got, w, ansi.Strip(l))
		}
	}
}

// TestGridRects checks that panes tile their area exactly and take the
// shape the layout rules give.
func TestGridRects(t *testing.T) {
	t.Parallel()
	cases := []struct {
		n          int
		a          rect
		rows, cols int // distinct y and x origins
	}{
		{1, rect{0, 0, 100, 30}, 1, 1},
		{2, rect{0, 0, 80, 18}, 1, 2},  // side by side
		{2, rect{0, 0, 84, 38}, 2, 1},  // stacked
		{3, rect{0, 0, 120, 40}, 2, 2}, // 2×2, last spans
		{4, rect{0, 0, 120, 40}, 2, 2},
		{5, rect{0, 0, 80, 15}, 2, 4},  // two rows: 3 above, 2 below
		{8, rect{0, 0, 80, 15}, 2, 4},  // two rows
		{8, rect{0, 0, 140, 58}, 4, 2}, // two columns
		{6, rect{3, 5, 84, 38}, 3, 2},
	}
	for _, c := range cases {
		rs := gridRects(c.n, c.a)
		if len(rs) != c.n {
			t.Fatalf("%d panes: got %d rects", c.n, len(rs))
		}
		area := 0
		ys, xs := map[int]bool{}, map[int]bool{}
		for i, r := range rs {
			area += r.w * r.h
			ys[r.y], xs[r.x] = true, true
			if r.x < c.a.x || r.y < c.a.y || r.x+r.w > c.a.x+c.a.w || r.y+r.h > c.a.y+c.a.h {
				t.Errorf("%d panes: rect %d %v outside %v", c.n, i, r, c.a)
			}
			for j := range i {
				o := rs[j]
				if r.x < o.x+o.w && o.x < r.x+r.w && r.y < o.y+o.h && o.y < r.y+r.h {
					t.Errorf("%d panes: rects %v and %v overlap", c.n, r, o)
				}
			}
		}
		if area != c.a.w*c.a.h {
			t.Errorf("%d panes in %v: cover %d cells, want %d", c.n, c.a, area, c.a.w*c.a.h)
		}
		if len(ys) != c.rows || len(xs) != c.cols {
			t.Errorf("%d panes in %v: %d rows × %d cols of origins, want %d × %d: %v", c.n, c.a, len(ys), len(xs), c.rows, c.cols, rs)
		}
	}
}

// sgrColour matches an SGR sequence that sets a colour.
var sgrColour = regexp.MustCompile(`\x1b\[[0-9;]*(?:^|;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m`)

// TestNoColor checks that NO_COLOR leaves no colour at all (the job's or
// the console's) while glyphs still tell states apart; the coloured run is
// the negative control.
func TestNoColor(t *testing.T) {
	t.Parallel()
	colour := newHarness(t, fixtureCore(8), 120, 40, Options{})
	if !sgrColour.MatchString(colour.m.View().Content) {
		t.Fatal("control: the coloured screen has no colour SGR; the check cannot fail")
	}
	plain := newHarness(t, fixtureCore(8), 120, 40, Options{NoColor: true})
	got := plain.m.View().Content
	if loc := sgrColour.FindStringIndex(got); loc != nil {
		t.Fatalf("NO_COLOR screen has a colour: %q", got[max(loc[0]-20, 0):loc[1]])
	}
	screen := plainScreen(got)
	for _, g := range []string{"●", "✗", "⊘", "◑", "✓"} {
		if !strings.Contains(screen, g) {
			t.Errorf("glyph %s missing without colour", g)
		}
	}
	if plainScreen(colour.m.View().Content) != screen {
		t.Error("the text differs with and without colour")
	}
}

// TestOnlySGRReachesTheScreen checks that a job's escapes (titles, screen
// clears, cursor moves) never reach the view: every ESC starts an SGR.
func TestOnlySGRReachesTheScreen(t *testing.T) {
	t.Parallel()
	c := newFakeCore(fixedNow)
	id := c.add(model.Snapshot{Command: "evil", State: model.StateRunning, Started: t0}, 0)
	c.emit(id, model.StreamOut, "\x1b]0;title\x07a\x1b[2Jb\x1b[10;10Hc\x1b]52;c;ZXZpbA==\x07d\x1b[?1049he\x1bPqdcs\x1b\\f\x1b[31mred")
	c.emit(id, model.StreamErr, "\x9b31m\x1b[6n\x1b7g")
	h := newHarness(t, c, 80, 24, Options{})
	got := h.m.View().Content
	for i := 0; i < len(got); i++ {
		if got[i] != 0x1b {
			continue
		}
		j := strings.IndexByte(got[i:], 'm')
		if j < 0 || !regexp.MustCompile(`^\x1b\[[0-9;]*m$`).MatchString(got[i:i+j+1]) {
			t.Fatalf("non-SGR escape at %d: %q", i, got[i:min(i+12, len(got))])
		}
	}
	if s := h.screen(); !strings.Contains(s, "abcdef") || !strings.Contains(s, "red") {
		t.Errorf("text around the escapes is lost:\n%s", s)
	}
}

// TestSelectionAndFocus covers ↑/↓ and j/k in the list, Tab/Shift+Tab and
// 1–8 between panes, and that selecting a job beyond the eighth pane brings
// it into a pane.
func TestSelectionAndFocus(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fixtureCore(3), 120, 40, Options{})
	steps := []struct {
		keys []string
		want model.JobID
	}{
		{nil, 0}, {[]string{"j"}, 1}, {[]string{"down"}, 2}, {[]string{"down"}, 2},
		{[]string{"k"}, 1}, {[]string{"up", "up"}, 0}, {[]string{"tab"}, 1},
		{[]string{"tab", "tab"}, 0}, {[]string{"shift+tab"}, 2}, {[]string{"2"}, 1},
		{[]string{"9"}, 1}, {[]string{"3"}, 2},
	}
	for _, s := range steps {
		h.press(s.keys...)
		if h.m.current != s.want {
			t.Fatalf("after %v: current job %d, want %d", s.keys, h.m.current, s.want)
		}
	}
	if !strings.Contains(h.screen(), "┏━ job 2 (flood)") {
		t.Errorf("focused pane is not drawn thick:\n%s", h.screen())
	}

	// Eleven jobs: panes show the live ones first, then the most
	// recently finished; selecting another brings it in.
	big := newHarness(t, fixtureCore(11), 200, 60, Options{})
	shown := func() []model.JobID {
		var ids []model.JobID
		for _, s := range big.m.paneJobs() {
			ids = append(ids, s.ID)
		}
		return ids
	}
	if got := shown(); len(got) != MaxPanes || !containsID(got, 8) || !containsID(got, 10) {
		t.Fatalf("panes %v: want 8 panes with the live jobs 8 and 10", got)
	}
	big.press("j", "j", "j", "j", "j", "j") // job 6: finished early
	big.press("j")                          // job 7
	big.press("j")                          // job 8
	big.press("k", "k", "k", "k", "k", "k") // job 2
	big.press("k")                          // job 1: finished, oldest end
	if got := shown(); !containsID(got, 1) {
		t.Errorf("selected job 1 not in panes %v", got)
	}
	if !strings.Contains(big.screen(), "job 1 exited 1") {
		t.Errorf("selected job 1 has no pane:\n%s", big.screen())
	}
}

func containsID(ids []model.JobID, id model.JobID) bool {
	for _, i := range ids {
		if i == id {
			return true
		}
	}
	return false
}

// TestScrollAndFollow covers PgUp (pauses), new output while paused,
// PgDn, Home, End (follows again) and a paused pane whose lines the ring
// evicted: it stays on the lines it showed and says they were evicted
// (it used to drift with the ring's oldest line, ARCHITECTURE.md §4).
func TestScrollAndFollow(t *testing.T) {
	t.Parallel()
	c := newFakeCore(fixedNow)
	id := c.add(model.Snapshot{Command: "count", State: model.StateRunning, Started: t0}, 100)
	c.emitN(id, model.StreamOut, 100, func(seq uint64) []byte { return []byte(fmt.Sprintf("line %d", seq)) })
	h := newHarness(t, c, 80, 24, Options{})
	rows := h.m.focusedRows() // 17 at 80×24 with one job
	if rows != 17 {
		t.Fatalf("pane rows %d, want 17", rows)
	}
	has := func(s string) bool {
		return strings.Contains(h.screen(), s+"\n") || strings.Contains(h.screen(), s+" ")
	}
	if !has("line 100") || has("line 83") {
		t.Fatalf("following pane should end at line 100:\n%s", h.screen())
	}
	h.press("pgup")
	if !has("line 68") || !has("line 84") || has("line 85") || !strings.Contains(h.screen(), "paused · 16 newer") {
		t.Fatalf("after PgUp want lines 68–84, paused:\n%s", h.screen())
	}
	c.emit(id, model.StreamOut, "line 101")
	h.pump()
	h.fire(frameMsg{})
	if has("line 101") || !has("line 68") || !strings.Contains(h.screen(), "paused · 17 newer") {
		t.Fatalf("paused pane moved with new output:\n%s", h.screen())
	}
	h.press("home") // the ring holds 100 lines: 2–101; line 1 was dropped
	if !strings.Contains(h.screen(), "[… 1 lines dropped]") || has("line 1") || !has("line 2") || !has("line 17") || has("line 18") {
		t.Fatalf("Home: want the dropped marker, then lines 2–17:\n%s", h.screen())
	}
	// The ring evicts lines 2–50 under the paused pane.
	c.emitN(id, model.StreamOut, 49, func(seq uint64) []byte { return []byte(fmt.Sprintf("line %d", seq)) })
	h.pump()
	h.fire(frameMsg{})
	if !has("line 2") || !has("line 17") || has("line 51") || !strings.Contains(h.screen(), "paused · evicted from the ring") {
		t.Fatalf("evicted lines under a paused pane: want it still on lines 2–17, saying so:\n%s", h.screen())
	}
	h.press("pgdown")
	if _, paused := h.m.scroll[id]; !paused {
		t.Fatal("PgDn in the middle resumed following")
	}
	h.press("end")
	if _, paused := h.m.scroll[id]; paused || !has("line 150") {
		t.Fatalf("End should follow again:\n%s", h.screen())
	}
	h.press("pgup", "pgdown", "pgdown")
	if _, paused := h.m.scroll[id]; paused {
		t.Fatal("paging down past the newest line should follow again")
	}
}

// TestZoom covers z: the focused pane takes the whole area and back.
func TestZoom(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fixtureCore(3), 120, 40, Options{})
	h.press("2", "z")
	s := h.screen()
	if strings.Contains(s, "job 0 running") || !strings.Contains(s, "job 1 exited 1") || !strings.Contains(s, "zoomed · z restores") {
		t.Fatalf("zoom on pane 2 should show only job 1:\n%s", s)
	}
	if strings.Contains(s, "╭─ jobs") {
		t.Error("zoom should cover the list too")
	}
	h.press("z")
	if s := h.screen(); !strings.Contains(s, "job 0 running") || !strings.Contains(s, "╭─ jobs") {
		t.Fatalf("z again should restore:\n%s", s)
	}
}

// TestResizeReflows checks a resize below the minimum and back.
func TestResizeReflows(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fixtureCore(3), 120, 40, Options{})
	h.send(tea.WindowSizeMsg{Width: 30, Height: 10})
	if got := strings.Join(strings.Fields(h.screen()), " "); got != "terminal too small: 30×10, need 40×12" {
		t.Fatalf("want the too-small message:\n%s", h.screen())
	}
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	want := newHarness(t, fixtureCore(3), 80, 24, Options{}).screen()
	if got := h.screen(); got != want {
		t.Fatalf("after resizing back to 80×24 the screen differs from a fresh one:\n%s\nwant\n%s", got, want)
	}
}
