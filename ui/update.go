package ui

import (
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// Update handles one message: keys and pastes, window sizes, the core's
// events, frame and clock ticks, fetches, and the results of starts, kills
// and status requests. It never calls the core: what it needs comes from
// the commands it returns (fetches on the frame tick and on events).
// Whatever changes what the panes show (a key, a resize, an overlay)
// fetches at once.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if f, ok := msg.(fetchedMsg); ok {
		return m, m.onFetched(f)
	}
	cmd := m.update(msg)
	if stale := m.fetchIfStale(); stale != nil {
		cmd = tea.Batch(cmd, stale)
	}
	return m, cmd
}

// update handles every message but fetchedMsg.
func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.setSize(msg.Width, msg.Height)
		m.invalidate()
		return m.launch()
	case launchMsg:
		return m.launch()
	case eventsMsg:
		return m.onEvents(msg)
	case subscribedMsg:
		return m.onSubscribed(msg)
	case frameMsg:
		// Output came in: fetch it (the fetch redraws), and listen again.
		m.frameDue = false
		cmds := []tea.Cmd{m.requestFetch()}
		if m.waitAfterFrame {
			m.waitAfterFrame = false
			cmds = append(cmds, m.armWait())
		}
		return tea.Batch(cmds...)
	case clockMsg:
		// Elapsed times moved: they are computed from the clock, so the
		// state at hand draws them.
		m.clockDue = false
		m.tickOverlay()
		m.invalidate()
		return m.ensureClock()
	case startedMsg:
		m.invalidate()
		return m.onStarted(msg)
	case killedMsg:
		m.invalidate()
		return m.onKilled(msg)
	case restartedMsg:
		m.invalidate()
		return m.onRestarted(msg)
	case removedMsg:
		m.invalidate()
		return m.onRemoved(msg)
	case statusReportMsg:
		m.invalidate()
		m.onStatus(msg)
		return nil
	case resolvedMsg:
		m.invalidate()
		return m.onResolved(msg)
	case reconnectedMsg:
		m.invalidate()
		return m.onReconnected(msg)
	case resizedMsg:
		m.onResized(msg)
		m.resizing = false
		return m.resizeShown()
	case foundMsg:
		m.invalidate()
		m.onFound(msg)
		return nil
	case tea.KeyPressMsg:
		return m.onKeyPress(msg)
	case tea.PasteMsg:
		return m.onPaste(msg)
	case tea.MouseMsg:
		m.onMouse(msg)
		return nil
	}
	return nil
}

// onKeyPress takes a key: it redraws at once from the state at hand.
func (m *Model) onKeyPress(msg tea.KeyPressMsg) tea.Cmd {
	if m.palette != nil && m.palette.busy != "" {
		// A /background is starting: keep what is typed meanwhile and
		// replay it once the palette is done (see onStarted).
		m.typeahead = append(m.typeahead, msg)
		return nil
	}
	if m.palette != nil && m.confirm == nil && !m.quitting {
		// Typing in the palette changes the footer only; what changes
		// more (submit, close) invalidates the whole screen.
		m.invalidateFooter()
	} else {
		m.invalidate()
	}
	return m.onKey(msg)
}

// onPaste feeds a paste to the palette.
func (m *Model) onPaste(msg tea.PasteMsg) tea.Cmd {
	if m.palette == nil {
		return nil
	}
	if m.palette.busy != "" {
		m.typeahead = append(m.typeahead, msg)
		return nil
	}
	m.invalidate()
	act, cmd := m.palette.Update(msg, m.keys, m.jobs)
	if act == paletteClose {
		m.palette = nil
	}
	return cmd
}

// onSubscribed keeps the subscription, listens to it, and fetches again:
// what changed before it existed is in no event.
func (m *Model) onSubscribed(msg subscribedMsg) tea.Cmd {
	if msg.err != nil {
		m.setMessage("no events from the jobs core ("+msg.err.Error()+"): the screen will not follow the jobs", true)
		return nil
	}
	m.sub = msg.sub
	return tea.Batch(m.armWait(), m.requestFetch())
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
	if m.clockDue || m.liveCount() == 0 || m.lost != "" {
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
		// events will come. A lost link is said, with what to do.
		if errors.Is(msg.err, model.ErrUnavailable) {
			m.lost = model.OneLine(msg.err.Error(), 0)
			m.lostAt = m.now()
			m.invalidate()
		}
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
		// A job started, changed state or went: fetch at once (the fetch
		// redraws and re-arms the clock).
		cmds = append(cmds, m.requestFetch())
	}
	now := m.fx.clock()
	if output {
		m.noteOutput(now)
	}
	if output && !m.frameDue && !state {
		// Leading edge: output after a quiet spell is fetched at once, so
		// a line reaches the screen in a fetch's time; within a frame of
		// the last fetch, one frame is scheduled for the rest of that
		// frame, so a flood costs at most one fetch a frame (pace.go).
		if wait := m.frameGap(now) - now.Sub(m.lastFetch); wait > 0 {
			m.frameDue = true
			cmds = append(cmds, m.fx.tick(wait, frameMsg{}))
		} else {
			cmds = append(cmds, m.requestFetch())
		}
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
	m.starting = max(m.starting-1, 0)
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
		m.upsertJob(r.Job)
		if _, resized := m.sized[r.Job.ID]; !resized && i < len(msg.sizes) && !msg.sizes[i].IsZero() {
			// A resize sent meanwhile is newer than the start's size.
			m.sized[r.Job.ID] = msg.sizes[i]
		}
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
			m.palette.err = m.reword(firstErr)
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
		m.setMessage(m.reword(firstErr), true)
	}
	return tea.Batch(append(replay, m.ensureClock(), m.requestFetch(), m.quitWhenKnown())...)
}

// quitWhenKnown answers a quit asked before the console knew which jobs
// run, once it knows.
func (m *Model) quitWhenKnown() tea.Cmd {
	if !m.quitAsked || !m.synced || m.starting > 0 {
		return nil
	}
	m.quitAsked = false
	m.invalidate()
	return m.requestQuit()
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
	if msg.err == nil {
		m.upsertJob(msg.report.Job)
	}
	if m.quitting {
		if len(m.stopping) == 0 {
			return tea.Quit
		}
		return nil
	}
	if msg.err != nil {
		m.setMessage("job-kill "+msg.id.String()+": "+m.reword(msg.err), true)
	} else {
		m.setMessage(msg.report.Job.Header(m.now()), false)
	}
	return tea.Batch(m.ensureClock(), m.requestFetch())
}

// onStatus opens the overlay with a job's full report.
func (m *Model) onStatus(msg statusReportMsg) {
	if msg.err != nil {
		m.setMessage("job-status "+msg.id.String()+": "+m.reword(msg.err), true)
		return
	}
	m.overlay = m.reportOverlay(msg.report)
}

// onResolved acts on a palette command whose job selector was resolved:
// an error shows inline in the palette that asked (the text is kept).
func (m *Model) onResolved(msg resolvedMsg) tea.Cmd {
	if msg.err != nil {
		if m.palette == msg.from && m.palette != nil {
			m.palette.err = msg.command + ": " + m.reword(msg.err)
		} else {
			m.setMessage(msg.command+": "+m.reword(msg.err), true)
		}
		return nil
	}
	if m.palette == msg.from {
		m.palette = nil
	}
	switch msg.command {
	case "job-status":
		return statusCmd(m.ctx, m.core, msg.id)
	case "job-restart":
		// Asked by name or ID in the palette: no question.
		return m.restart(msg.id)
	}
	return m.kill(msg.id)
}

// setMessage shows text in the status line until the next key.
func (m *Model) setMessage(text string, isErr bool) {
	m.message, m.msgErr = model.OneLine(text, 0), isErr
	m.msgJob = nil
	m.logMessage(m.message, isErr)
}

// setJobMessage shows a job's header in the status line until the next key,
// kept current as the job runs and ends (a header captured once would say
// "running" after the job exited).
func (m *Model) setJobMessage(id model.JobID) {
	m.message, m.msgErr = "", false
	m.msgJob = &id
	if s, ok := m.snapshot(id); ok {
		m.logMessage(s.Header(m.now()), false)
	}
}
