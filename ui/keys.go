package ui

import (
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// onKey handles a key press: first the dialog that is open (confirm,
// palette, overlay), else the console's own keys.
func (m *Model) onKey(msg tea.KeyPressMsg) tea.Cmd {
	if m.quitting {
		// Stopping every job before quitting: Quit again leaves at once
		// (the caller still stops the jobs).
		if key.Matches(msg, m.keys.Quit) {
			return tea.Quit
		}
		return nil
	}
	m.message, m.msgErr, m.msgJob = "", false, nil
	if m.lost != "" {
		m.confirm, m.palette = nil, nil
		return m.onLostKey(msg)
	}
	switch {
	case m.confirm != nil:
		return m.onConfirmKey(msg)
	case m.palette != nil:
		return m.onPaletteKey(msg)
	case m.overlay != nil:
		m.onOverlayKey(msg)
		return nil
	}
	return m.onMainKey(msg)
}

// onMainKey handles a key on the main screen (no dialog, palette or
// overlay open).
func (m *Model) onMainKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.requestQuit()
	case key.Matches(msg, k.Up):
		m.moveSelection(-1)
	case key.Matches(msg, k.Down):
		m.moveSelection(+1)
	case key.Matches(msg, k.NextPane):
		m.cycleFocus(+1)
	case key.Matches(msg, k.PrevPane):
		m.cycleFocus(-1)
	case key.Matches(msg, k.Pane):
		if n, ok := k.paneNumber(msg.String()); ok {
			m.focusPane(n)
		}
	case key.Matches(msg, k.PageUp):
		m.scrollFocused(scrollPageUp)
	case key.Matches(msg, k.PageDown):
		m.scrollFocused(scrollPageDown)
	case key.Matches(msg, k.Top):
		m.scrollFocused(scrollTop)
	case key.Matches(msg, k.Bottom):
		m.scrollFocused(scrollBottom)
	case key.Matches(msg, k.Zoom):
		if m.hasCurrent {
			m.zoomed = !m.zoomed
		}
	case key.Matches(msg, k.Wrap):
		if m.hasCurrent {
			m.wrap[m.current] = !m.wrap[m.current]
		}
	case key.Matches(msg, k.Mouse):
		m.toggleMouse()
	case key.Matches(msg, k.Search):
		m.openSearch()
	case m.search != nil && key.Matches(msg, k.SearchNext):
		return m.searchMove(searchOlder)
	case m.search != nil && key.Matches(msg, k.SearchPrev):
		return m.searchMove(searchNewer)
	case m.search != nil && key.Matches(msg, k.Close):
		m.endSearch()
	case key.Matches(msg, k.Kill):
		m.askKill()
	case key.Matches(msg, k.Restart):
		return m.askRestart()
	case key.Matches(msg, k.Remove):
		return m.removeSelected()
	case key.Matches(msg, k.Palette):
		first := msg.Text
		if first == "" {
			first = msg.String()
		}
		m.palette = newPalette(first, m.history, m.st)
		m.palette.setWidth(m.width)
	case key.Matches(msg, k.Help):
		m.help.ShowAll = !m.help.ShowAll
	}
	return nil
}

// onConfirmKey answers the open confirm dialog: Yes does it, any other key
// cancels.
func (m *Model) onConfirmKey(msg tea.KeyPressMsg) tea.Cmd {
	c := m.confirm
	m.confirm = nil
	if !key.Matches(msg, m.keys.Yes) {
		return nil
	}
	if said := m.overtaken(c); said {
		return nil
	}
	switch c.kind {
	case confirmKill:
		return m.kill(c.job)
	case confirmQuit:
		if len(m.others()) > 0 {
			// Someone attached while the question was open: the jobs
			// are theirs too now, so leaving only detaches.
			return tea.Quit
		}
		return m.stopAllAndQuit()
	case confirmRestart:
		return m.restart(c.job)
	}
	return nil
}

// onPaletteKey feeds the palette and acts on what it returns.
func (m *Model) onPaletteKey(msg tea.KeyPressMsg) tea.Cmd {
	act, cmd := m.palette.Update(msg, m.keys, m.jobs)
	switch act {
	case paletteClose:
		m.palette = nil
		m.invalidate()
	case paletteSubmit:
		m.invalidate()
		if m.palette.search != nil {
			return m.submitSearch(m.palette.value())
		}
		return m.submit(m.palette.value())
	}
	return cmd
}

// submit runs a palette line. Mistakes found here (unknown command,
// missing argument, no such job) show inline and keep the text.
func (m *Model) submit(line string) tea.Cmd {
	p := m.palette
	if n := len(m.history); n == 0 || m.history[n-1] != line {
		m.history = append(m.history, line)
	}
	p.history, p.histPos = m.history, len(m.history)
	if utf8.RuneCountInString(line) > PaletteMaxChars {
		p.err = tooLong // the input may have cut it: never run a cut command
		return nil
	}
	pc, err := parseCommand(line)
	if err != nil {
		p.err = err.Error()
		return nil
	}
	switch pc.cmd.name {
	case "background":
		spec, err := backgroundSpec(pc.arg)
		if err != nil {
			p.err = err.Error()
			return nil
		}
		p.busy = "starting " + model.OneLine(spec.Command, 60) + " …"
		m.starting++
		spec.Size = m.startSizes(1)[0]
		return startCmd(m.ctx, m.core, m.owner, []model.Spec{spec}, p)
	case "job-kill", "job-status", "job-restart":
		return resolveCmd(m.ctx, m.core, pc.cmd.name, pc.arg, p)
	case "clear":
		m.palette = nil
		return clearCmd(m.ctx, m.core)
	case "help":
		m.palette = nil
		m.overlay = m.helpOverlay()
	case "quit":
		m.palette = nil
		return m.requestQuit()
	}
	return nil
}

// onOverlayKey scrolls or closes the overlay.
func (m *Model) onOverlayKey(msg tea.KeyPressMsg) {
	k, o := m.keys, m.overlay
	a := m.layout().panes
	rows := max(a.h-2, 1)
	switch {
	case m.search != nil && m.search.overlay && key.Matches(msg, k.Close):
		m.endSearch() // Esc ends the overlay's search first
	case key.Matches(msg, k.Close, k.Submit, k.Quit):
		m.overlay = nil
		if m.search != nil && m.search.overlay {
			m.endSearch()
		}
	case key.Matches(msg, k.Search):
		m.openSearch()
	case m.search != nil && m.search.overlay && key.Matches(msg, k.SearchNext):
		m.searchMove(searchOlder)
	case m.search != nil && m.search.overlay && key.Matches(msg, k.SearchPrev):
		m.searchMove(searchNewer)
	case key.Matches(msg, k.PageUp):
		o.scroll(-max(rows-1, 1), a)
	case key.Matches(msg, k.PageDown):
		o.scroll(max(rows-1, 1), a)
	case key.Matches(msg, k.Up, k.HistoryPrev):
		o.scroll(-1, a)
	case key.Matches(msg, k.Down, k.HistoryNext):
		o.scroll(1, a)
	case key.Matches(msg, k.Top):
		o.top, o.sub = 0, 0
	case key.Matches(msg, k.Bottom):
		o.top, o.sub = len(o.lines), 0
		o.scroll(0, a) // the last place it scrolls to
	case key.Matches(msg, k.Wrap):
		o.wrap, o.sub = !o.wrap, 0
		o.scroll(0, a)
	}
}

// moveSelection moves the selection d rows in the list.
func (m *Model) moveSelection(d int) {
	if len(m.jobs) == 0 {
		return
	}
	i := clamp(m.currentIndex()+d, 0, len(m.jobs)-1)
	m.current, m.hasCurrent = m.jobs[i].ID, true
}

// cycleFocus moves the focus d panes on, wrapping around.
func (m *Model) cycleFocus(d int) {
	shown := m.paneJobs()
	if len(shown) == 0 {
		return
	}
	i := 0
	for j, s := range shown {
		if m.hasCurrent && s.ID == m.current {
			i = (j + d + len(shown)) % len(shown)
			break
		}
	}
	m.current, m.hasCurrent = shown[i].ID, true
}

// focusPane focuses pane n (0-based) when it exists.
func (m *Model) focusPane(n int) {
	if shown := m.paneJobs(); n < len(shown) {
		m.current, m.hasCurrent = shown[n].ID, true
	}
}

// scrollKind is a scroll of the focused pane.
type scrollKind uint8

const (
	scrollPageUp scrollKind = iota
	scrollPageDown
	scrollTop
	scrollBottom
)

// scrollFocused scrolls the focused pane. Scrolling up pauses following
// (the pane keeps the seq of its top line); Bottom, or paging down past the
// newest line, follows again.
func (m *Model) scrollFocused(k scrollKind) {
	if !m.hasCurrent {
		return
	}
	id := m.current
	if k == scrollBottom {
		delete(m.scroll, id)
		return
	}
	rows := m.focusedRows()
	s, ok := m.snapshot(id)
	if !ok || rows <= 0 || s.Lines == 0 {
		return
	}
	first := max(s.FirstSeq, 1)
	last := s.Lines
	if last-first+1 <= uint64(rows) && !m.wrap[id] {
		return // everything fits: nothing to scroll (wrapped lines may not)
	}
	bottomTop := first // the top line while following
	if last >= uint64(rows) {
		bottomTop = max(last-uint64(rows)+1, first)
	}
	step := uint64(max(rows-1, 1))
	top, paused := m.scroll[id]
	if paused {
		top = max(top, first)
	}
	switch k {
	case scrollPageUp:
		if !paused {
			top = bottomTop
		}
		if top > first+step {
			top -= step
		} else {
			top = 1 // the oldest: the window marks what the ring dropped
		}
		m.scroll[id] = top
	case scrollPageDown:
		if !paused {
			return
		}
		if top+step >= bottomTop {
			delete(m.scroll, id)
		} else {
			m.scroll[id] = top + step
		}
	case scrollTop:
		// From seq 1: the window starts with "[… N lines dropped]" when
		// the ring no longer holds the first lines.
		m.scroll[id] = 1
	}
}
