package ui

import (
	"context"
	"errors"
	"slices"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// Restarts and removals: r (and /job-restart) stops a job's tree and starts
// its command again as a new run, which takes the old run's pane (see
// runsShown) and the selection; d removes a finished job from the list,
// /clear every finished job. They run in commands, like kills.

type (
	// restartedMsg: Restart returned.
	restartedMsg struct {
		id     model.JobID // the old run
		report model.Report
		err    error
	}
	// removedMsg: Remove or Clear returned.
	removedMsg struct {
		ids   []model.JobID // what was removed
		clear bool          // /clear (ids may be empty)
		err   error
	}
)

// restartCmd restarts one job; it returns once the new run started.
func restartCmd(ctx context.Context, core Core, id model.JobID, by string) tea.Cmd {
	return func() tea.Msg {
		// No start wait: the new run's pane shows its fate live.
		r, err := core.Restart(ctx, id, model.RestartOptions{By: by, NoWait: true})
		return restartedMsg{id: id, report: r, err: err}
	}
}

// removeCmd removes one finished job.
func removeCmd(ctx context.Context, core Core, id model.JobID) tea.Cmd {
	return func() tea.Msg {
		err := core.Remove(ctx, id)
		return removedMsg{ids: []model.JobID{id}, err: err}
	}
}

// clearCmd removes every finished job.
func clearCmd(ctx context.Context, core Core) tea.Cmd {
	return func() tea.Msg {
		ids, err := core.Clear(ctx)
		return removedMsg{ids: ids, clear: true, err: err}
	}
}

// askRestart restarts the selected job: at once when it is over, after
// asking while it runs.
func (m *Model) askRestart() tea.Cmd {
	if !m.hasCurrent {
		m.setMessage("no job selected: start one with /background <command>", true)
		return nil
	}
	s, ok := m.snapshot(m.current)
	switch {
	case !ok:
		return nil
	case m.restarting[s.ID]:
		m.setMessage("already restarting job "+s.ID.String(), false)
	case m.stopping[s.ID] || (s.Stop != nil && s.Live()):
		m.setMessage("job "+s.Label()+" is being stopped: restart it once it ended", true)
	case s.Live():
		m.confirm = &confirm{
			kind:     confirmRestart,
			job:      s.ID,
			question: "restart job " + jobPhrase(s) + "? y/n",
		}
	default:
		return m.restart(s.ID)
	}
	return nil
}

// restart restarts job id in the background; the status line says so
// until the new run started.
func (m *Model) restart(id model.JobID) tea.Cmd {
	if m.restarting[id] {
		return nil
	}
	m.restarting[id] = true
	return restartCmd(m.ctx, m.core, id, m.owner)
}

// onRestarted takes a restart's result: the new run takes the selection
// when the old one had it, and its header goes to the status line.
func (m *Model) onRestarted(msg restartedMsg) tea.Cmd {
	delete(m.restarting, msg.id)
	if msg.err != nil {
		m.setMessage("job-restart "+msg.id.String()+": "+m.restartProblem(msg.id, msg.err), true)
		return tea.Batch(m.ensureClock(), m.requestFetch())
	}
	s := msg.report.Job
	m.upsertJob(s)
	if !m.hasCurrent || m.current == msg.id {
		m.current, m.hasCurrent = s.ID, true
	}
	delete(m.scroll, msg.id)
	m.setJobMessage(s.ID)
	return tea.Batch(m.ensureClock(), m.requestFetch())
}

// followRestarts moves the selection to the new run of the selected job
// when a fetch brings one that was not listed before (a restart another
// client asked for); an old run selected on purpose stays selected.
func (m *Model) followRestarts(before, after []model.Snapshot) {
	if !m.hasCurrent {
		return
	}
	for _, s := range after {
		if s.RestartOf != nil && *s.RestartOf == m.current &&
			!slices.ContainsFunc(before, func(b model.Snapshot) bool { return b.ID == s.ID }) {
			m.current = s.ID
			return
		}
	}
}

// removeSelected removes the selected job when it is finished.
func (m *Model) removeSelected() tea.Cmd {
	if !m.hasCurrent {
		m.setMessage("no job selected", true)
		return nil
	}
	s, ok := m.snapshot(m.current)
	switch {
	case !ok:
		return nil
	case s.Live():
		kill := m.keys.Kill.Help().Key
		how := "stop it first (/job-kill)"
		if kill != "" {
			how = "stop it first (" + kill + ")"
		}
		m.setMessage("job "+s.Label()+" is still running: "+how+", then remove it", true)
		return nil
	}
	return removeCmd(m.ctx, m.core, s.ID)
}

// onRemoved takes the result of a removal: the jobs leave the list at
// once, and the selection moves to the job beside the removed one.
func (m *Model) onRemoved(msg removedMsg) tea.Cmd {
	what := "job-remove"
	if msg.clear {
		what = "clear"
	}
	if msg.err != nil {
		m.setMessage(what+": "+m.reword(msg.err), true)
		return m.requestFetch()
	}
	idx := m.currentIndex()
	m.jobs = slices.DeleteFunc(slices.Clone(m.jobs), func(s model.Snapshot) bool { return slices.Contains(msg.ids, s.ID) })
	if idx >= 0 && len(m.jobs) > 0 && slices.Contains(msg.ids, m.current) {
		m.current = m.jobs[min(idx, len(m.jobs)-1)].ID
	}
	m.settleSelection()
	switch n := len(msg.ids); {
	case msg.clear && n == 0:
		m.setMessage("no finished jobs to clear", false)
	case msg.clear:
		m.setMessage("removed "+plural(n, "finished job")+" from the list", false)
	default:
		m.setMessage("removed job "+msg.ids[0].String()+" from the list", false)
	}
	return m.requestFetch()
}

// restartingNote is the status line's word for restarts in flight.
func (m *Model) restartingNote() string {
	switch n := len(m.restarting); {
	case n == 1:
		for id := range m.restarting {
			return " · restarting job " + id.String() + "…"
		}
	case n > 1:
		return " · restarting " + strconv.Itoa(n) + " jobs…"
	}
	return ""
}

// restartProblem words a refused restart: the core's words, except when
// the job's directory is gone (deleted or moved since it started): then
// which directory, that it no longer exists, and what to do.
func (m *Model) restartProblem(id model.JobID, err error) string {
	var in *model.InputError
	s, ok := m.snapshot(id)
	if !errors.As(err, &in) || (in.Field != model.FieldDir && in.Field != model.FieldDefaultDir) || !ok || s.Dir == "" {
		return m.reword(err)
	}
	return "the directory of job " + s.Label() + ", " + s.Dir + ", no longer exists (deleted or moved since it started): " +
		"recreate it (mkdir -p " + s.Dir + ") and restart again, or start the command anew with /background"
}
