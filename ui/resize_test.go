package ui

import (
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// wantSizes returns the terminal size each job shown in a pane should
// have: its pane's text area.
func wantSizes(m *Model) map[model.JobID]model.TermSize {
	out := map[model.JobID]model.TermSize{}
	shown, rects := m.paneRects()
	for i, s := range shown {
		out[s.ID] = model.TermSize{Cols: rects[i].w - 4, Rows: rects[i].h - 2}
	}
	return out
}

// TestPanesSizeTheirJobs checks that every live pty job shown in a pane
// is given the pane's text area (width less borders and gutter, height
// less borders), again after the terminal is resized and when a pane is
// zoomed, and that jobs not shown (behind an overlay, or not the zoomed
// one) keep their last size. Jobs on pipes and finished jobs are never
// resized, and an unchanged layout asks for nothing.
func TestPanesSizeTheirJobs(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3) // 0 running, 1 exited, 2 running
	h := newHarness(t, c, 120, 40, Options{})
	check := func(when string, ids ...model.JobID) {
		t.Helper()
		got, want := c.sizes(), wantSizes(h.m)
		for _, id := range ids {
			if got[id] != want[id] {
				t.Errorf("%s: job %d has %v, want its pane's %v", when, id, got[id], want[id])
			}
		}
	}
	check("at 120×40", 0, 2)
	if _, ok := c.sizes()[1]; ok {
		t.Errorf("the finished job 1 was resized: %v", c.resized)
	}
	n := len(c.resized)
	h.send(frameMsg{})
	if len(c.resized) != n {
		t.Errorf("a frame with the same layout resized again: %v", c.resized[n:])
	}

	h.send(teaSize(200, 60))
	check("at 200×60", 0, 2)
	before := c.sizes()[2]
	h.press("z") // zoom job 0
	check("zoomed", 0)
	if c.sizes()[2] != before {
		t.Errorf("job 2, not shown while job 0 is zoomed, went from %v to %v", before, c.sizes()[2])
	}
	h.press("z")
	check("unzoomed", 0, 2)

	// An overlay covers the panes: a resize behind it changes nothing.
	h.m.overlay = h.m.helpOverlay()
	n = len(c.resized)
	h.send(teaSize(100, 30))
	if len(c.resized) != n {
		t.Errorf("jobs behind an overlay were resized: %v", c.resized[n:])
	}
	h.press("esc")
	check("overlay closed", 0, 2)

	pipe := c.add(model.Snapshot{Command: "cat big.log", State: model.StateRunning, Started: t0}, 0)
	h.pump()
	h.send(frameMsg{})
	if _, ok := c.sizes()[pipe]; ok {
		t.Errorf("job %d on pipes was resized", pipe)
	}
}

// TestStartsAtPaneSize checks that a job started from the palette, and
// the launch commands, start at the size of the pane they get, and are
// not resized again to the same size.
func TestStartsAtPaneSize(t *testing.T) {
	t.Parallel()
	c := fixtureCore(1)
	h := newHarness(t, c, 120, 40, Options{})
	h.command("background make watch")
	id := model.JobID(1)
	want := wantSizes(h.m)[id]
	if len(c.startSizes) != 1 || c.startSizes[0] != want {
		t.Fatalf("started at %v, want its pane's %v", c.startSizes, want)
	}
	for _, r := range c.resized {
		if r.id == id {
			t.Errorf("job %d was resized to %v after starting at its size", id, r.size)
		}
	}

	c = newFakeCore(fixedNow)
	h = newHarness(t, c, 200, 60, Options{Launch: []model.Spec{{Command: "npm run dev"}, {Command: "go test ./..."}}})
	if len(c.started) != 2 {
		t.Fatalf("launch commands started: %q", c.started)
	}
	want2 := wantSizes(h.m)
	for i, s := range c.startSizes {
		if s != want2[model.JobID(i)] {
			t.Errorf("launch job %d started at %v, want its pane's %v", i, s, want2[model.JobID(i)])
		}
	}
	if len(c.resized) != 0 {
		t.Errorf("launch jobs resized after starting at their size: %v", c.resized)
	}
}

// TestNoResizeWhileStarting checks that panes are not sized while jobs
// are on their way (the launch commands start one by one, and each fetch
// meanwhile sees a layout about to change), and are once they are in.
func TestNoResizeWhileStarting(t *testing.T) {
	t.Parallel()
	c := fixtureCore(1)
	h := newHarness(t, c, 120, 40, Options{})
	n := len(c.resized)
	h.m.starting = 1
	h.send(teaSize(200, 60))
	if len(c.resized) != n {
		t.Errorf("resized while a start is on its way: %v", c.resized[n:])
	}
	h.m.starting = 0
	h.send(frameMsg{})
	if got, want := c.sizes()[0], wantSizes(h.m)[0]; got != want {
		t.Errorf("after the start: job 0 at %v, want %v", got, want)
	}
}

// TestResizesGoOutOneAfterTheOther: while a resize command is on its way,
// a change of the pane sends nothing; when the command returns, the
// newest size goes out. Two commands in flight could reach the core in
// either order and leave the job at the older size.
func TestResizesGoOutOneAfterTheOther(t *testing.T) {
	t.Parallel()
	c := fixtureCore(1)
	h := newHarness(t, c, 120, 40, Options{})
	want := wantSizes(h.m)[0]
	stale := model.TermSize{Cols: 1, Rows: 1}
	h.m.sized[0] = stale // as if the pane had just changed
	first := h.m.resizeShown()
	if first == nil {
		t.Fatal("no resize for a pane whose size changed")
	}
	h.m.sized[0] = stale // it changes again before the first returns
	if cmd := h.m.resizeShown(); cmd != nil {
		t.Fatal("a second resize command while the first is on its way")
	}
	n := len(c.resized)
	h.send(first()) // the first reaches the core, then the one it held back
	if got := c.resized[n:]; len(got) != 2 || got[1].size != want {
		t.Fatalf("after the first returned: resizes %v, want two, the last to %v", got, want)
	}
	if h.m.resizing {
		t.Fatal("still marked as resizing after every command returned")
	}
}

// TestSizesFollowTheStatusLine: an agent with a long name lengthens the
// status line onto a second row, which the panes give up; when it
// leaves, the fetch that brings the news was planned with the old
// layout, and the job must still grow back to its pane.
func TestSizesFollowTheStatusLine(t *testing.T) {
	t.Parallel()
	c := fixtureCore(1)
	long := model.Client{ID: 1, Kind: "mcp", Name: strings.Repeat("agent-", 8), PID: 4242}
	c.setSession("/w/app", selfClient, long)
	h := newHarness(t, c, 60, 30, Options{})
	h.m.setMessage("a message after the counts", false)
	h.send(frameMsg{})
	with := c.sizes()[0]
	c.setSession("/w/app", selfClient)
	h.pump() // one fetch, planned before it learnt the agent left
	want := wantSizes(h.m)[0]
	if want.Rows <= with.Rows {
		t.Fatalf("the agent's name did not take a row: %v with it, %v without", with, want)
	}
	if got := c.sizes()[0]; got != want {
		t.Fatalf("after the agent left the job has %v, its pane %v", got, want)
	}
}
