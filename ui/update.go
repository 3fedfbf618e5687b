package ui

import (
	"fmt"
	"time"

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
		cmds := []tea.Cmd{m.refreshOverlay()}
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
	case resolvedMsg:
		m.invalidate()
		return m, m.onResolved(msg)
	case tea.KeyPressMsg:
		if m.palette != nil && m.palette.busy != "" {
			// A /background is starting: keep what is typed meanwhile
			// and replay it once the palette is done (see onStarted).
			m.typeahead = append(m.typeahead, msg)
			return m, nil
		}
		if m.palette != nil && m.confirm == nil && !m.quitting {
			// Typing in the palette changes the footer only; what
			// changes more (submit, close) invalidates the whole screen.
			m.invalidateFooter()
		} else {
			m.invalidate()
		}
		return m, m.onKey(msg)
	case tea.PasteMsg:
		if m.palette == nil {
			return m, nil
		}
		if m.palette.busy != "" {
			m.typeahead = append(m.typeahead, msg)
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
		cmds = append(cmds, m.ensureClock(), m.refreshOverlay())
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
		// A job started from the palette takes the selection; jobs
		// started at launch take it only when nothing is selected yet
		// (their report may come after the user picked another job).
		if msg.from != nil || (!started && !m.hasCurrent) {
			m.current, m.hasCurrent = r.Job.ID, true
		}
		started = true
		m.setJobMessage(r.Job.ID)
	}
	if failed := countErrs(msg.errs); failed > 0 && len(msg.errs) > 1 {
		firstErr = fmt.Errorf("%d of %d commands did not start; the first: %w", failed, len(msg.errs), firstErr)
	}
	var replay []tea.Cmd
	if msg.from != nil && m.palette == msg.from {
		m.palette.busy = ""
		ahead := m.typeahead
		m.typeahead = nil
		if firstErr != nil {
			// The line stays for fixing; what was typed after it assumed
			// success and is dropped, and the error says so.
			m.palette.err = firstErr.Error()
			if len(ahead) > 0 {
				m.palette.err += " (keys typed meanwhile were dropped)"
			}
		} else {
			m.palette = nil
			for _, k := range ahead {
				_, cmd := m.Update(k)
				replay = append(replay, cmd)
			}
		}
	} else if firstErr != nil {
		m.setMessage(firstErr.Error(), true)
	}
	return tea.Batch(append(replay, m.ensureClock())...)
}

func countErrs(errs []error) int {
	n := 0
	for _, err := range errs {
		if err != nil {
			n++
		}
	}
	return n
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
	if msg.refresh {
		m.overlayDue = false
		if o := m.overlay; msg.err == nil && o != nil && o.job != nil && *o.job == msg.id {
			// Same report, newer: keep the reader's place.
			n := m.reportOverlay(msg.report)
			n.top = o.top
			m.overlay = n
		}
		return
	}
	if msg.err != nil {
		m.setMessage("job-status "+msg.id.String()+": "+msg.err.Error(), true)
		return
	}
	m.overlay = m.reportOverlay(msg.report)
}

// onResolved acts on a palette command whose job selector was resolved:
// an error shows inline in the palette that asked (the text is kept).
func (m *Model) onResolved(msg resolvedMsg) tea.Cmd {
	if msg.err != nil {
		if m.palette == msg.from && m.palette != nil {
			m.palette.err = msg.command + ": " + msg.err.Error()
		} else {
			m.setMessage(msg.command+": "+msg.err.Error(), true)
		}
		return nil
	}
	if m.palette == msg.from {
		m.palette = nil
	}
	if msg.command == "job-status" {
		return statusCmd(m.ctx, m.core, msg.id, false)
	}
	return m.kill(msg.id)
}

// refreshOverlay asks for a newer report for an open /job-status overlay,
// one request at a time, so that it follows the job like a pane does.
func (m *Model) refreshOverlay() tea.Cmd {
	if m.overlay == nil || m.overlay.job == nil || m.overlayDue {
		return nil
	}
	m.overlayDue = true
	return statusCmd(m.ctx, m.core, *m.overlay.job, true)
}

// setMessage shows text in the status line until the next key.
func (m *Model) setMessage(text string, isErr bool) {
	m.message, m.msgErr = model.OneLine(text, 0), isErr
	m.msgJob = nil
}

// setJobMessage shows a job's header in the status line until the next key,
// kept current as the job runs and ends (a header captured once would say
// "running" after the job exited).
func (m *Model) setJobMessage(id model.JobID) {
	m.message, m.msgErr = "", false
	m.msgJob = &id
}
