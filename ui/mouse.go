package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// The mouse: while it is on (the default), the wheel scrolls the pane
// under the pointer (or moves the selection over the job list, or scrolls
// an overlay), and a click focuses a pane or selects a job in the list.
// The Mouse key turns it off, so that the terminal's own selection and
// wheel work; while it is on, Shift-drag still selects text in most
// terminals (mouseHelp says which).

// wheelLines is how many lines one notch of the wheel scrolls a pane or
// an overlay.
const wheelLines = 3

// mouseHelp says, in the help, how text is selected while the mouse is
// on, and in which terminals.
const mouseHelp = "Mouse: the wheel scrolls the pane under it, a click focuses a pane or selects a job. " +
	"While it is on, Shift-drag selects text in xterm, GNOME Terminal and other VTE terminals, Konsole, " +
	"kitty, Alacritty, WezTerm, foot and Windows Terminal (iTerm2: Option-drag); elsewhere, m turns the " +
	"mouse off so the terminal selects and scrolls as usual."

// toggleMouse turns the mouse off or on and says what that means.
func (m *Model) toggleMouse() {
	m.mouseOff = !m.mouseOff
	m.syncMouseHelp()
	if m.mouseOff {
		m.setMessage("mouse off: your terminal selects text and scrolls as usual; "+m.keys.Mouse.Help().Key+" turns the mouse on again", false)
	} else {
		m.setMessage("mouse on: the wheel scrolls the pane under it, a click focuses a pane or selects a job; Shift-drag selects text in most terminals", false)
	}
}

// syncMouseHelp words the Mouse key's help for what it does now.
func (m *Model) syncMouseHelp() {
	desc := "mouse off"
	if m.mouseOff {
		desc = "mouse on"
	}
	m.keys.Mouse.SetHelp(m.keys.Mouse.Help().Key, desc)
}

// onMouse takes a mouse event: wheel and left clicks act; the rest (other
// buttons, releases, motion) and anything while a question is asked, the
// palette is open or the link is lost, do nothing.
func (m *Model) onMouse(msg tea.MouseMsg) {
	if m.mouseOff || m.confirm != nil || m.lost != "" || m.quitting || tooSmall(m.width, m.height) {
		return
	}
	ev := msg.Mouse()
	switch msg.(type) {
	case tea.MouseWheelMsg:
		d := 0
		switch ev.Button {
		case tea.MouseWheelUp:
			d = -1
		case tea.MouseWheelDown:
			d = 1
		default:
			return
		}
		m.onWheel(ev.X, ev.Y, d)
	case tea.MouseClickMsg:
		if ev.Button == tea.MouseLeft && m.palette == nil && m.overlay == nil {
			m.onClick(ev.X, ev.Y)
		}
	}
}

// onWheel scrolls what is under (x, y) by one notch, up (d < 0) or down.
func (m *Model) onWheel(x, y, d int) {
	l := m.layout()
	if m.overlay != nil {
		if l.panes.contains(x, y) {
			m.overlay.scroll(d*wheelLines, l.panes)
			m.invalidate()
		}
		return
	}
	if l.list.contains(x, y) {
		m.moveSelection(d)
		m.invalidate()
		return
	}
	if id, r, ok := m.paneAt(x, y); ok {
		m.scrollLines(id, r.h-2, d*wheelLines)
		m.invalidate()
	}
}

// onClick focuses the pane at (x, y), or selects the job of the list row
// at (x, y).
func (m *Model) onClick(x, y int) {
	l := m.layout()
	if l.list.contains(x, y) {
		rows := l.list.h - 2
		first := 0
		if idx := m.currentIndex(); idx >= rows {
			first = idx - rows + 1 // as renderList scrolls
		}
		if j := first + (y - l.list.y - 1); y > l.list.y && y < l.list.y+l.list.h-1 && j >= 0 && j < len(m.jobs) {
			m.current, m.hasCurrent = m.jobs[j].ID, true
			m.invalidate()
		}
		return
	}
	if id, _, ok := m.paneAt(x, y); ok {
		m.current, m.hasCurrent = id, true
		m.invalidate()
	}
}

// paneAt returns the job whose pane is at (x, y), and the pane.
func (m *Model) paneAt(x, y int) (model.JobID, rect, bool) {
	if len(m.jobs) == 0 {
		return 0, rect{}, false
	}
	shown, rects := m.paneRects()
	for i, r := range rects {
		if r.contains(x, y) {
			return shown[i].ID, r, true
		}
	}
	return 0, rect{}, false
}

// contains reports whether cell (x, y) is in r.
func (r rect) contains(x, y int) bool {
	return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h
}

// scrollLines scrolls job id's pane of rows body rows by n lines: up
// (n < 0) pauses it, down past the newest line follows again. As the
// keys do, a pane whose lines all fit (and do not wrap) does not scroll,
// and scrolling up past the oldest line the ring holds shows what it
// dropped.
func (m *Model) scrollLines(id model.JobID, rows, n int) {
	s, ok := m.snapshot(id)
	if !ok || rows <= 0 || s.Lines == 0 || n == 0 {
		return
	}
	first := max(s.FirstSeq, 1)
	last := s.Lines
	if last-first+1 <= uint64(rows) && !m.wrap[id] {
		return
	}
	bottomTop := first
	if last >= uint64(rows) {
		bottomTop = max(last-uint64(rows)+1, first)
	}
	top, paused := m.scroll[id]
	if paused {
		top = max(top, first)
	}
	if n < 0 {
		if !paused {
			top = bottomTop
		}
		if d := uint64(-n); top > first+d {
			top -= d
		} else {
			top = 1
		}
		m.scroll[id] = top
		return
	}
	if !paused {
		return
	}
	if top+uint64(n) >= bottomTop {
		delete(m.scroll, id)
	} else {
		m.scroll[id] = top + uint64(n)
	}
}
