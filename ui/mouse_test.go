package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// numberedCore holds n running jobs of 100 lines each: "job I line N".
func numberedCore(n int) *fakeCore {
	c := newFakeCore(fixedNow)
	for i := range n {
		id := c.add(model.Snapshot{Command: fmt.Sprintf("seq-job %d", i), State: model.StateRunning, Started: t0, TTY: true}, 0)
		c.emitN(id, model.StreamOut, 100, func(seq uint64) []byte { return fmt.Appendf(nil, "job %d line %d", i, seq) })
	}
	return c
}

// paneCenter returns a cell inside job id's pane.
func paneCenter(t *testing.T, m *Model, id model.JobID) (int, int) {
	t.Helper()
	shown, rects := m.paneRects()
	for i, s := range shown {
		if s.ID == id {
			return rects[i].x + rects[i].w/2, rects[i].y + rects[i].h/2
		}
	}
	t.Fatalf("job %d has no pane", id)
	return 0, 0
}

func wheel(x, y int, b tea.MouseButton) tea.MouseWheelMsg {
	return tea.MouseWheelMsg{X: x, Y: y, Button: b}
}

func click(x, y int, b tea.MouseButton) tea.MouseClickMsg {
	return tea.MouseClickMsg{X: x, Y: y, Button: b}
}

// TestMouseWheel: the wheel scrolls the pane under the pointer, not the
// focused one, three lines a notch (up pauses it; down past the newest
// line follows again); over the job list it moves the selection; over an
// overlay it scrolls the overlay.
func TestMouseWheel(t *testing.T) {
	t.Parallel()
	h := newHarness(t, numberedCore(3), 120, 40, Options{})
	x, y := paneCenter(t, h.m, 2)
	h.send(wheel(x, y, tea.MouseWheelUp))
	top, paused := h.m.scroll[2]
	if !paused || h.m.current != 0 {
		t.Fatalf("wheel up over job 2's pane: scroll %v (paused %v), focus %d; want job 2 paused, focus kept on 0", h.m.scroll, paused, h.m.current)
	}
	rows := wantSizes(h.m)[2].Rows
	if want := uint64(100 - rows + 1 - wheelLines); top != want {
		t.Errorf("one notch up: top line %d, want %d", top, want)
	}
	if s := h.screen(); !strings.Contains(s, fmt.Sprintf("job 2 line %d", top)) || !strings.Contains(s, "paused") {
		t.Errorf("the paused pane should show its new top line:\n%s", s)
	}
	h.send(wheel(x, y, tea.MouseWheelUp))
	if got := h.m.scroll[2]; got != top-wheelLines {
		t.Errorf("two notches up: top %d, want %d", got, top-wheelLines)
	}
	h.send(wheel(x, y, tea.MouseWheelDown))
	h.send(wheel(x, y, tea.MouseWheelDown))
	if _, paused := h.m.scroll[2]; paused {
		t.Errorf("wheel down back to the newest line should follow again: %v", h.m.scroll)
	}
	h.send(wheel(x, y, tea.MouseWheelDown))
	if _, paused := h.m.scroll[2]; paused {
		t.Error("wheel down on a following pane should change nothing")
	}

	// Over the job list: the selection moves.
	l := h.m.layout()
	h.send(wheel(l.list.x+3, l.list.y+2, tea.MouseWheelDown))
	if h.m.current != 1 {
		t.Errorf("wheel down over the list: selected %d, want 1", h.m.current)
	}

	// Over an overlay: it scrolls.
	h.send(teaSize(120, 20))
	h.m.overlay = h.m.helpOverlay()
	x, y = h.m.layout().panes.x+5, h.m.layout().panes.y+5
	h.send(wheel(x, y, tea.MouseWheelDown))
	// The help wraps: the wheel scrolls it by rows.
	if pos, _ := h.m.overlay.rowIndex(overlayText(h.m.layout().panes)); pos != wheelLines {
		t.Errorf("wheel over the help overlay: row %d, want %d", pos, wheelLines)
	}
}

// TestMouseClick: a left click in a pane focuses it, in a row of the job
// list selects that job; other buttons, the borders of the list and
// clicks while the palette is open do nothing.
func TestMouseClick(t *testing.T) {
	t.Parallel()
	h := newHarness(t, numberedCore(3), 120, 40, Options{})
	x, y := paneCenter(t, h.m, 1)
	h.send(click(x, y, tea.MouseRight))
	if h.m.current != 0 {
		t.Errorf("a right click changed the focus to %d", h.m.current)
	}
	h.send(click(x, y, tea.MouseLeft))
	if h.m.current != 1 {
		t.Errorf("a click in job 1's pane: focus %d, want 1", h.m.current)
	}
	if s := h.screen(); !strings.Contains(s, "┏━ job 1") {
		t.Errorf("the clicked pane should be drawn focused:\n%s", s)
	}
	l := h.m.layout()
	h.send(click(l.list.x+3, l.list.y+1+2, tea.MouseLeft)) // the third row: job 2
	if h.m.current != 2 {
		t.Errorf("a click on the list's third row: selected %d, want 2", h.m.current)
	}
	h.send(click(l.list.x+3, l.list.y, tea.MouseLeft)) // the list's top border
	if h.m.current != 2 {
		t.Errorf("a click on the list's border selected %d", h.m.current)
	}
	h.press("/")
	x0, y0 := paneCenter(t, h.m, 0)
	h.send(click(x0, y0, tea.MouseLeft))
	if h.m.current != 2 {
		t.Errorf("a click while the palette is open moved the focus to %d", h.m.current)
	}
}

// TestMouseToggle: the mouse is on by default (the view asks for cell
// motion reports); m turns it off (no mouse mode: the terminal selects),
// says so and what brings it back, and the help words the key for what
// it does now; wheel and clicks then do nothing; m again turns it on.
func TestMouseToggle(t *testing.T) {
	t.Parallel()
	h := newHarness(t, numberedCore(2), 120, 40, Options{})
	if h.m.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatalf("mouse mode %v by default, want cell motion", h.m.View().MouseMode)
	}
	if d := h.m.keys.Mouse.Help().Desc; d != "mouse off" {
		t.Errorf("help of m while the mouse is on: %q", d)
	}
	h.press("m")
	if h.m.View().MouseMode != tea.MouseModeNone {
		t.Errorf("mouse mode %v after m, want none", h.m.View().MouseMode)
	}
	if f := h.footer(2); !strings.Contains(f, "mouse off: your terminal selects text") {
		t.Errorf("m should say the mouse is off:\n%s", f)
	}
	if d := h.m.keys.Mouse.Help().Desc; d != "mouse on" {
		t.Errorf("help of m while the mouse is off: %q", d)
	}
	x, y := paneCenter(t, h.m, 1)
	h.send(click(x, y, tea.MouseLeft))
	h.send(wheel(x, y, tea.MouseWheelUp))
	if h.m.current != 0 || len(h.m.scroll) != 0 {
		t.Errorf("mouse events acted while the mouse is off: focus %d, scroll %v", h.m.current, h.m.scroll)
	}
	h.press("m")
	if h.m.View().MouseMode != tea.MouseModeCellMotion {
		t.Error("m again should turn the mouse on")
	}
	if f := h.footer(4); !strings.Contains(f, "mouse on: the wheel scrolls") {
		t.Errorf("m should say the mouse is on:\n%s", f)
	}
	h.m.overlay = h.m.helpOverlay()
	if !strings.Contains(strings.Join(h.m.overlay.lines, " "), "Shift-drag selects text") {
		t.Error("/help should say how to select text while the mouse is on")
	}
}
