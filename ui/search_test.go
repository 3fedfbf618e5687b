package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/jobdeck/jobdeck/model"
)

// marks lists the highlighted text of each screen row as a terminal
// shows it (the view drawn into cells): "row 7: «line 40» current" for a
// run of reverse-video underlined cells, "… match" for reverse only; the
// job list (whose selected row is reverse video too) is left out.
func marks(m *Model) []string {
	buf := uv.NewScreenBuffer(m.width, m.height)
	uv.NewStyledString(m.View().Content).Draw(buf, buf.Bounds())
	list := m.layout().list
	var out []string
	for y := range m.height {
		run, kind := "", ""
		end := func() {
			if run != "" {
				out = append(out, fmt.Sprintf("row %d: «%s» %s", y+1, run, kind))
			}
			run, kind = "", ""
		}
		for x := range m.width {
			c := buf.CellAt(x, y)
			if c == nil || c.Width == 0 {
				continue
			}
			k := ""
			if c.Style.Attrs&uv.AttrReverse != 0 && !list.contains(x, y) {
				k = "match"
				if c.Style.Underline != uv.UnderlineNone {
					k = "current"
				}
			}
			if k != kind {
				end()
			}
			if k != "" {
				run, kind = run+c.Content, k
			}
		}
		end()
	}
	return out
}

// searchFor opens the search prompt with ctrl+f, types pattern and runs it.
func (h *harness) searchFor(pattern string) {
	h.send(tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl})
	h.typeText(pattern)
	h.press("enter")
}

// TestSearchKeys covers ctrl+f, n, N and Esc on a job's pane: the prompt
// names the job, a bad or empty pattern is said inline (the text kept), a
// search pauses the pane at the newest match and says which of how many
// it is, n and N go to the next older and newer match (searching the ring
// again each time) and wrap around, matches in view are highlighted (the
// current one differently), and Esc ends the search, the pane back where
// it was before it (following).
func TestSearchKeys(t *testing.T) {
	t.Parallel()
	c := numberedCore(3)
	h := newHarness(t, c, 120, 40, Options{})
	h.press("tab") // focus job 1
	h.send(tea.KeyPressMsg{Code: 'f', Mod: tea.ModCtrl})
	if h.m.palette == nil || h.m.palette.search == nil {
		t.Fatal("ctrl+f should open the search prompt")
	}
	if f := h.footer(2); !strings.Contains(f, "search job 1: ") {
		t.Errorf("the prompt should name the job:\n%s", f)
	}
	h.press("enter")
	if h.m.palette == nil || !strings.Contains(h.m.palette.err, "type a regular expression") {
		t.Errorf("an empty pattern should be said inline")
	}
	h.typeText("line (")
	h.press("enter")
	if h.m.palette == nil || !strings.Contains(h.m.palette.err, "not a valid regular expression") || h.m.palette.value() != "line (" {
		t.Fatalf("a bad pattern should be said inline, the text kept: %+v", h.m.palette)
	}
	h.press("esc")

	h.searchFor(`line [1-4]0$`) // lines 10, 20, 30, 40
	want := func(what string, cur uint64, pos string) {
		t.Helper()
		text := cur // the numbered lines say their seq
		if cur > 100 {
			text = 40 // the line added below
		}
		if h.m.search == nil || h.m.search.cur != cur {
			t.Fatalf("%s: current match %v, want line %d", what, h.m.search, cur)
		}
		s := h.screen()
		if !strings.Contains(s, pos) || !strings.Contains(s, fmt.Sprintf("job 1 line %d", text)) {
			t.Errorf("%s: want %q and line %d in view:\n%s", what, pos, text, s)
		}
		ms := marks(h.m)
		if !slicesContain(ms, fmt.Sprintf("«line %d» current", text)) {
			t.Errorf("%s: line %d is not highlighted as the current match: %q", what, text, ms)
		}
	}
	want("search", 40, "match 4 of 4")
	if _, paused := h.m.scroll[1]; !paused {
		t.Error("the pane should be paused at the match")
	}
	greps := len(c.greps)
	h.press("n")
	want("n", 30, "match 3 of 4")
	if len(c.greps) != greps+1 {
		t.Errorf("n should search the ring again: %d greps, want %d", len(c.greps), greps+1)
	}
	if ms := marks(h.m); !slicesContain(ms, "«line 40» match") && !slicesContain(ms, "«line 20» match") {
		t.Errorf("other matches in view should be highlighted too: %q", ms)
	}
	h.press("n", "n")
	want("n n", 10, "match 1 of 4")
	h.press("n")
	want("n past the oldest", 40, "(wrapped)")
	h.press("N")
	want("N past the newest", 10, "(wrapped)")
	h.press("N")
	want("N", 20, "match 2 of 4")

	// New matching lines come in (a flood): the next N finds them.
	c.emit(1, model.StreamOut, "job 1 line 40")
	h.press("N", "N", "N")
	want("N to the new line", 101, "match 5 of 5")

	h.press("esc")
	if h.m.search != nil {
		t.Fatal("Esc should end the search")
	}
	if len(marks(h.m)) != 0 {
		t.Error("the highlights should go with the search")
	}
	if _, paused := h.m.scroll[1]; paused {
		t.Error("the pane should go back to following, as before the search")
	}

	h.searchFor("no such text")
	if f := h.footer(2); !strings.Contains(f, "no line of job 1 matches") {
		t.Errorf("a search without matches should say so:\n%s", f)
	}
}

// TestSearchOverlay: ctrl+f in the /job-status overlay searches its
// lines; n and N move, Esc ends the search, a second Esc closes the
// overlay.
func TestSearchOverlay(t *testing.T) {
	t.Parallel()
	h := newHarness(t, numberedCore(1), 120, 24, Options{})
	h.command("job-status 0")
	if h.m.overlay == nil {
		t.Fatal("no overlay")
	}
	h.searchFor(`line [1-3]1$`) // 11, 21, 31
	if h.m.search == nil || !h.m.search.overlay || len(h.m.search.matches) != 3 {
		t.Fatalf("the overlay's search: %+v", h.m.search)
	}
	cur := func() string { return h.m.overlay.lines[h.m.search.cur-1] }
	if !strings.HasSuffix(cur(), "line 31") || !strings.Contains(h.screen(), "match 3 of 3") {
		t.Errorf("the overlay's search should land on its newest match: %q\n%s", cur(), h.screen())
	}
	if ms := marks(h.m); !slicesContain(ms, "«line 31» current") {
		t.Errorf("the overlay's current match is not highlighted: %q", ms)
	}
	h.press("n")
	if !strings.HasSuffix(cur(), "line 21") || !strings.Contains(h.screen(), "job 0 line 21") {
		t.Errorf("n in the overlay: %q\n%s", cur(), h.screen())
	}
	h.press("N", "N")
	if !strings.HasSuffix(cur(), "line 11") {
		t.Errorf("N past the newest should wrap to the oldest: %q", cur())
	}
	h.press("esc")
	if h.m.search != nil || h.m.overlay == nil {
		t.Fatalf("the first Esc ends the search only: search %v, overlay %v", h.m.search, h.m.overlay != nil)
	}
	h.press("esc")
	if h.m.overlay != nil {
		t.Error("the second Esc closes the overlay")
	}
}

// TestSearchWrapped: a wrapped pane highlights matches on every row of a
// line, and a search lands on a line whose text wraps.
func TestSearchWrapped(t *testing.T) {
	t.Parallel()
	h := newHarness(t, wrapCore(), 80, 24, Options{})
	h.press("w")
	h.searchFor(`fields=\w+`)
	ms := marks(h.m)
	if len(ms) == 0 || !strings.Contains(strings.Join(ms, "\n"), "current") {
		t.Errorf("a wrapped line's match should be highlighted:\n%s\n%q", h.screen(), ms)
	}
}

func slicesContain(list []string, s string) bool {
	for _, l := range list {
		if strings.HasSuffix(l, s) {
			return true
		}
	}
	return false
}

// TestGoldenSearch: a search in the focused pane at three sizes: the
// screen, then the highlighted text of each row.
func TestGoldenSearch(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		name := fmt.Sprintf("view_%dx%d_search", size[0], size[1])
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, fixtureCore(3), size[0], size[1], Options{})
			h.searchFor(`localhost|ECONNREFUSED|warning`)
			got := h.screen() + "── highlights ──\n" + strings.Join(marks(h.m), "\n") + "\n"
			checkGolden(t, name+".golden", got)
		})
	}
}

// TestSearchFlood: a search of a job that floods lands on a match and
// shows it although the ring evicts its lines between the search and the
// pane's read (the search reads the match's lines itself, or the first
// match still held), keeps showing it as the flood goes on, and n moves:
// from a match the ring evicted to the oldest one it holds (it used to go
// around to the newest, again and again, and the pane showed no match).
func TestSearchFlood(t *testing.T) {
	t.Parallel()
	c := newFakeCore(fixedNow)
	id := c.add(model.Snapshot{Command: "flood", State: model.StateRunning, Started: t0, TTY: true}, 2000)
	gen := func(seq uint64) []byte { return []byte("flood line " + itoa(seq)) }
	c.emitN(id, model.StreamOut, 5000, gen)
	h := newHarness(t, c, 100, 30, Options{})
	flood := func(n int) {
		c.emitN(id, model.StreamOut, n, gen)
		h.pump()
		h.fire(frameMsg{})
	}
	shown := func(what string) uint64 {
		t.Helper()
		s := h.m.search
		if s == nil || s.cur == 0 {
			t.Fatalf("%s: no current match: %+v", what, s)
		}
		if ms := marks(h.m); !slicesContain(ms, "«000» current") || !strings.Contains(h.screen(), fmt.Sprintf("flood line %d\n", s.cur)) &&
			!strings.Contains(h.screen(), fmt.Sprintf("flood line %d ", s.cur)) {
			t.Fatalf("%s: match %d is not shown highlighted: %q\n%s", what, s.cur, ms, h.screen())
		}
		return s.cur
	}
	once := func() { c.afterGrep = nil; c.emitN(id, model.StreamOut, 3000, gen) }
	c.afterGrep = once // the ring evicts the match before the pane reads it
	h.searchFor(`000$`)
	first := shown("search")
	if first != 7000 { // 5000 was evicted: the first match held after it
		t.Errorf("the search landed on %d, want 7000", first)
	}
	flood(3000) // and evicts it again under the paused pane
	if shown("the flood goes on") != first {
		t.Fatalf("the match moved with the flood")
	}
	h.press("n")
	older := shown("n")
	if older == first || !strings.Contains(h.screen(), "evicted the older ones") {
		t.Fatalf("n from an evicted match should move to the oldest held and say so: %d, was %d\n%s", older, first, h.screen())
	}
	h.press("n")
	if shown("n again") == older {
		t.Fatalf("n is stuck on %d", older)
	}
}
