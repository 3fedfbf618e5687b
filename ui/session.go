package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// A console on a shared session (package session) shows which session it
// is on and who else is attached; quitting while others are attached only
// detaches (the jobs go on for them); and a lost link says so, with q to
// quit and r to join again (a new session when the old one is gone).

// onLostKey handles a key while the link to the core is lost: q quits at
// once (the jobs are the session's, and out of reach), r reconnects when
// the core can; other keys do nothing.
func (m *Model) onLostKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Quit):
		return tea.Quit
	case msg.String() == "r":
		rc, ok := m.core.(Reconnecter)
		if !ok || m.reconnecting {
			return nil
		}
		m.reconnecting = true
		return reconnectCmd(m.ctx, rc)
	}
	return nil
}

// onReconnected takes a reconnect's result: on success the console
// subscribes again (which fetches everything anew).
func (m *Model) onReconnected(msg reconnectedMsg) tea.Cmd {
	m.reconnecting = false
	if msg.err != nil {
		m.lost = model.OneLine("could not join again: "+msg.err.Error(), 0)
		return nil
	}
	m.lost, m.linkErr = "", ""
	if m.sub != nil {
		_ = m.sub.Close()
		m.sub = nil
	}
	m.waiting, m.waitAfterFrame = false, false
	m.stopping = map[model.JobID]bool{}
	m.setMessage("joined "+m.sessionLabel()+" again", false)
	return subscribeCmd(m.ctx, m.core)
}

// shownNow is the time the screen's elapsed times are measured to: now,
// or, once the link is lost, the moment it was (the jobs' fate since is
// unknown, so their clocks stop).
func (m *Model) shownNow() time.Time {
	if m.lost != "" {
		return m.lostAt
	}
	return m.now()
}

// sessionLabel names the console's session for messages.
func (m *Model) sessionLabel() string {
	if m.session.Label == "" {
		return "the session"
	}
	return "the session of " + m.session.Label
}

// lostLine is the status line while the link is lost.
func (m *Model) lostLine() string {
	what := "q quits"
	if _, ok := m.core.(Reconnecter); ok {
		what = "r joins again · q quits"
		if m.reconnecting {
			what = "joining…"
		}
	}
	return m.lost + " · " + what
}

// withOthers is the status line's note of who else is attached:
// " · with claude-code (pid 4242), codex"; empty when nobody is.
func (m *Model) withOthers() string {
	others := m.others()
	if len(others) == 0 {
		return ""
	}
	names := make([]string, 0, len(others))
	for _, c := range others {
		names = append(names, c.Name)
	}
	return " · with " + strings.Join(names, ", ")
}

// listTitle is the job list's title: "jobs", and on a shared session the
// session in a word ("jobs · app"; the window title has the whole label).
func (m *Model) listTitle() string {
	title := "jobs"
	if !m.session.Private && m.session.Short != "" {
		title += " · " + m.session.Short
	}
	if m.lost != "" {
		title += " · gone: as last seen"
	}
	return title
}

// windowTitle is the terminal window's title: "jobdeck", and the session's
// label on a shared session ("jobdeck · /home/me/src/app").
func (m *Model) windowTitle() string {
	if m.session.Private || m.session.Label == "" {
		return "jobdeck"
	}
	return "jobdeck · " + model.OneLine(m.session.Label, 80)
}
