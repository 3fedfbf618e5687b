package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// Update handles one message: keys and pastes, window sizes, the core's
// events, frame and clock ticks, and the results of starts, kills and
// status requests. It never does IO itself: those run in the commands it
// returns.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.setSize(msg.Width, msg.Height)
		m.invalidate()
		return m, nil
	case eventsMsg:
		return m, m.onEvents(msg)
	case frameMsg:
		m.frameDue = false
		m.refresh()
		m.invalidate()
		var cmds []tea.Cmd
		if m.waitAfterFrame {
			m.waitAfterFrame = false
			cmds = append(cmds, m.armWait())
		}
		return m, tea.Batch(append(cmds, m.ensureClock())...)
	case clockMsg:
		m.clockDue = false
		m.refresh()
		m.invalidate()
		return m, m.ensureClock()
	case startedMsg:
		m.invalidate()
		return m, m.onStarted(msg)
	case killedMsg:
		m.invalidate()
		return m, m.onKilled(msg)
	case statusReportMsg:
		m.invalidate()
		m.onStatus(msg)
		return m, nil
	case tea.KeyPressMsg:
		m.invalidate()
		return m, m.onKey(msg)
	case tea.PasteMsg:
		if m.palette == nil {
			return m, nil
		}
		m.invalidate()
		act, cmd := m.palette.Update(msg, m.keys, m.jobs)
		if act == paletteClose {
			m.palette = nil
		}
		return m, cmd
	}
	return m, nil
}

// setSize takes a new terminal size; everything reflows on the next View.
func (m *Model) setSize(w, h int) {
	m.width, m.height = w, h
	m.help.SetWidth(w)
	if m.palette != nil {
		m.palette.setWidth(w)
	}
}

// armWait returns the command that waits for the core's next events,
// unless one is outstanding.
func (m *Model) armWait() tea.Cmd {
	if m.waiting || m.sub == nil {
		return nil
	}
	m.waiting = true
	return m.fx.wait(m.ctx, m.sub)
}

// ensureClock schedules the once-a-second tick while a job is live, so
// elapsed times move; nothing ticks when every job is over.
func (m *Model) ensureClock() tea.Cmd {
	if m.clockDue || m.liveCount() == 0 {
		return nil
	}
	m.clockDue = true
	return m.fx.tick(time.Second, clockMsg{})
}

// onEvents handles what the event wait returned. State events refresh the
// list and redraw at once. Output events only schedule a frame (at most
// one pending); the wait is re-armed when that frame comes, so a flood
// costs at most one wake-up per frame.
func (m *Model) onEvents(msg eventsMsg) tea.Cmd {
	m.waiting = false
	if msg.err != nil {
		// The subscription or the console's context is over: no more
		// events will come.
		return nil
	}
	var output, state bool
	for _, ev := range msg.events {
		if ev.Kind == model.EventOutput {
			output = true
		} else {
			state = true
		}
	}
	var cmds []tea.Cmd
	if state {
		m.refresh()
		m.invalidate()
		cmds = append(cmds, m.ensureClock())
	}
	if output && !m.frameDue {
		m.frameDue = true
		cmds = append(cmds, m.fx.tick(frameInterval, frameMsg{}))
	}
	if m.frameDue {
		m.waitAfterFrame = true
	} else {
		cmds = append(cmds, m.armWait())
	}
	return tea.Batch(cmds...)
}

// onStarted takes the result of starting jobs: the new job is selected
// (and so shown in a pane); an error goes inline in the palette that asked,
// or to the status line.
func (m *Model) onStarted(msg startedMsg) tea.Cmd {
	m.refresh()
	var firstErr error
	started := false
	for i, r := range msg.reports {
		if err := msg.errs[i]; err != nil {
			firstErr = cmpErr(firstErr, err)
			continue
		}
		if !started || msg.fromPalette {
			m.current, m.hasCurrent = r.Job.ID, true
		}
		started = true
		m.setMessage(r.Job.Header(m.now()), false)
	}
	if msg.fromPalette && m.palette != nil {
		m.palette.busy = ""
		if firstErr != nil {
			m.palette.err = firstErr.Error()
		} else {
			m.palette = nil
		}
	} else if firstErr != nil {
		m.setMessage(firstErr.Error(), true)
	}
	return m.ensureClock()
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// onKilled takes the result of a kill; when quitting, the last one quits.
func (m *Model) onKilled(msg killedMsg) tea.Cmd {
	delete(m.stopping, msg.id)
	m.refresh()
	if m.quitting {
		if len(m.stopping) == 0 {
			return tea.Quit
		}
		return nil
	}
	if msg.err != nil {
		m.setMessage("job-kill "+msg.id.String()+": "+msg.err.Error(), true)
	} else {
		m.setMessage(msg.report.Job.Header(m.now()), false)
	}
	return m.ensureClock()
}

// onStatus opens the overlay with a job's full report.
func (m *Model) onStatus(msg statusReportMsg) {
	if msg.err != nil {
		m.setMessage("job-status "+msg.sel+": "+msg.err.Error(), true)
		return
	}
	m.overlay = newOverlay("job-status "+msg.report.Job.Label(), msg.report.Text)
}

// setMessage shows text in the status line until the next key.
func (m *Model) setMessage(text string, isErr bool) {
	m.message, m.msgErr = model.OneLine(text, 0), isErr
}

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
	m.message, m.msgErr = "", false
	switch {
	case m.confirm != nil:
		return m.onConfirmKey(msg)
	case m.palette != nil:
		return m.onPaletteKey(msg)
	case m.overlay != nil:
		m.onOverlayKey(msg)
		return nil
	}
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
	case key.Matches(msg, k.Kill):
		m.askKill()
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
	switch c.kind {
	case confirmKill:
		return m.kill(c.job)
	case confirmQuit:
		return m.stopAllAndQuit()
	}
	return nil
}

// onPaletteKey feeds the palette and acts on what it returns.
func (m *Model) onPaletteKey(msg tea.KeyPressMsg) tea.Cmd {
	act, cmd := m.palette.Update(msg, m.keys, m.jobs)
	switch act {
	case paletteClose:
		m.palette = nil
	case paletteSubmit:
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
	pc, err := parseCommand(line)
	if err != nil {
		p.err = err.Error()
		return nil
	}
	switch pc.cmd.name {
	case "background":
		p.busy = "starting " + model.OneLine(pc.arg, 60) + " …"
		return startCmd(m.ctx, m.core, []string{pc.arg}, true)
	case "job-kill", "job-status":
		id, err := m.core.Resolve(pc.arg)
		if err != nil {
			p.err = pc.cmd.name + ": " + err.Error()
			return nil
		}
		m.palette = nil
		if pc.cmd.name == "job-status" {
			return statusCmd(m.ctx, m.core, id.String())
		}
		return m.kill(id)
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
	rows := max(m.layout().panes.h-2, 1)
	switch {
	case key.Matches(msg, k.Close, k.Submit, k.Quit):
		m.overlay = nil
	case key.Matches(msg, k.PageUp):
		o.scroll(-max(rows-1, 1), rows)
	case key.Matches(msg, k.PageDown):
		o.scroll(max(rows-1, 1), rows)
	case key.Matches(msg, k.Up, k.HistoryPrev):
		o.scroll(-1, rows)
	case key.Matches(msg, k.Down, k.HistoryNext):
		o.scroll(1, rows)
	case key.Matches(msg, k.Top):
		o.scroll(-len(o.lines), rows)
	case key.Matches(msg, k.Bottom):
		o.scroll(len(o.lines), rows)
	}
}

// askKill asks before stopping the selected job.
func (m *Model) askKill() {
	if !m.hasCurrent {
		m.setMessage("no job selected: start one with /background <command>", true)
		return
	}
	s, ok := m.snapshot(m.current)
	switch {
	case !ok:
		return
	case m.stopping[s.ID]:
		m.setMessage("already stopping job "+s.ID.String(), false)
	case !s.Live():
		m.setMessage("job "+s.Label()+" is over ("+s.Status()+"); nothing to stop", false)
	default:
		m.confirm = &confirm{
			kind:     confirmKill,
			job:      s.ID,
			question: "kill job " + s.ID.String() + " (" + model.OneLine(s.Command, 40) + ") and everything it started? y/n",
		}
	}
}

// kill stops a job in the background; the status line says "stopping…"
// until Kill returns.
func (m *Model) kill(id model.JobID) tea.Cmd {
	if m.stopping[id] {
		return nil
	}
	m.stopping[id] = true
	return killCmd(m.ctx, m.core, id)
}

// requestQuit quits at once when no job is live, else asks first.
func (m *Model) requestQuit() tea.Cmd {
	n := m.liveCount()
	if n == 0 && len(m.stopping) == 0 {
		return tea.Quit
	}
	m.confirm = &confirm{
		kind:     confirmQuit,
		question: "stop " + plural(max(n, len(m.stopping)), "running job") + " and quit? y/n",
	}
	return nil
}

// stopAllAndQuit stops every live job in parallel and quits when the last
// kill returns.
func (m *Model) stopAllAndQuit() tea.Cmd {
	m.quitting = true
	var cmds []tea.Cmd
	for _, s := range m.jobs {
		if s.Live() {
			cmds = append(cmds, m.kill(s.ID))
		}
	}
	if len(m.stopping) == 0 {
		return tea.Quit
	}
	return tea.Batch(cmds...)
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
	s, ok := m.core.Snapshot(id)
	if !ok || rows <= 0 || s.Lines == 0 {
		return
	}
	first := max(s.FirstSeq, 1)
	last := s.Lines
	if last-first+1 <= uint64(rows) {
		return // everything fits: nothing to scroll
	}
	bottomTop := last - uint64(rows) + 1
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
			top = first
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
		m.scroll[id] = first
	}
}
