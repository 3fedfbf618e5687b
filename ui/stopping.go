package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

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
			question: "kill job " + jobPhrase(s) + " and everything it started? y/n",
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
	return killCmd(m.ctx, m.core, id, m.owner)
}

// requestQuit quits at once when no job is live, else asks first.
// Until it knows (the job list not fetched yet, or a start still on its
// way: a job started at launch may run before its report arrives), the
// answer waits for what it waits for (quitWhenKnown).
func (m *Model) requestQuit() tea.Cmd {
	if m.lost != "" {
		return tea.Quit
	}
	if len(m.others()) > 0 && m.starting == 0 {
		// Others use the session: leaving detaches, and every job goes
		// on for them; nothing to ask.
		return tea.Quit
	}
	if !m.synced || m.starting > 0 {
		m.quitAsked = true
		return nil
	}
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

// jobPhrase names a job in a question: "6 (sleep 500)", or with its name
// "6 (victim: sleep 500)".
func jobPhrase(s model.Snapshot) string {
	cmd := model.OneLine(s.Command, 40)
	if s.Name != "" {
		return s.ID.String() + " (" + model.OneLine(s.Name, 40) + ": " + cmd + ")"
	}
	return s.ID.String() + " (" + cmd + ")"
}

// overtaken tells, and says on the status line, when what a confirm asked
// for was done by someone else while the question was open (an agent
// stopped or restarted the job): the answer then does nothing.
func (m *Model) overtaken(c *confirm) bool {
	if c.kind != confirmKill && c.kind != confirmRestart {
		return false
	}
	s, ok := m.snapshot(c.job)
	if !ok {
		return false
	}
	by := ""
	if s.Stop != nil && s.Stop.By != "" {
		by = " by " + s.Stop.By
	}
	if c.kind == confirmRestart {
		for _, j := range m.jobs {
			if j.RestartOf != nil && *j.RestartOf == c.job {
				m.setMessage("job "+s.Label()+" was restarted meanwhile"+by+", as job "+j.Label(), false)
				return true
			}
		}
		return false
	}
	if !s.Live() {
		m.setMessage("job "+s.Label()+" was stopped meanwhile"+by+": "+s.Status(), false)
		return true
	}
	return false
}
