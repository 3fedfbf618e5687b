package ui

import (
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// TestFetchReadsOnlyWhatChanged: a frame is one call to the core (Frame:
// the list and the windows), which reads only the windows of panes whose
// job printed something since they were read (a new line, or a partial
// line that moved) or whose pane changed (scrolled, resized); the others
// keep what they showed.
func TestFetchReadsOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	c := numberedCore(3)
	h := newHarness(t, c, 120, 40, Options{})
	frameReads := func(what string, want int) {
		t.Helper()
		reads, frames, others := c.reads, c.frames, c.lists+c.readManys
		h.send(frameMsg{})
		if got := c.reads - reads; got != want {
			t.Errorf("%s: a frame read %d windows, want %d", what, got, want)
		}
		if c.frames-frames != 1 || c.lists+c.readManys-others != 0 {
			t.Errorf("%s: a frame made %d Frame calls and %d List or ReadMany calls, want 1 and 0",
				what, c.frames-frames, c.lists+c.readManys-others)
		}
	}
	frameReads("nothing printed", 0)
	c.emit(2, model.StreamOut, "job 2 line 101")
	frameReads("job 2 printed a line", 1)
	if s := h.screen(); !strings.Contains(s, "job 2 line 101") {
		t.Errorf("the new line is not shown:\n%s", s)
	}
	c.setPartial(0, model.StreamOut, "prompt> ")
	frameReads("job 0's partial line", 1)
	if s := h.screen(); !strings.Contains(s, "prompt>") {
		t.Errorf("the partial line is not shown:\n%s", s)
	}
	h.press("pgup") // job 0's pane pauses: its read changes
	if s := h.screen(); !strings.Contains(s, "paused") {
		t.Errorf("pgup should pause job 0's pane:\n%s", s)
	}
	frameReads("after the scroll", 0) // the key's fetch read it already
	h.send(teaSize(200, 60))
	frameReads("after a resize", 0)
	if s := h.screen(); !strings.Contains(s, "job 1 line 100") {
		t.Errorf("after a resize the panes show their lines:\n%s", s)
	}
}
