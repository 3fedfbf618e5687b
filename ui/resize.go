package ui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// Panes that fit their jobs: each job shown in a pane gets the pane's
// text area as its terminal size (its pty is resized and the job gets
// SIGWINCH), whenever the layout or the terminal changes what that area
// is. A job not shown keeps the size it last had. A job started from the
// console starts at the size of the pane it is about to get.

// paneTextWidth is the width a job's text gets in a pane w cells wide:
// the pane less its two borders and the two-cell gutter (the "!" of
// stderr lines).
func paneTextWidth(w int) int { return max(w-4, 0) }

// resizeReq is one resize this console asks for.
type resizeReq struct {
	id   model.JobID
	size model.TermSize
}

// resizedMsg: the resizes asked for returned; errs[i] is reqs[i]'s.
type resizedMsg struct {
	reqs []resizeReq
	errs []error
}

// resizeShown returns the command that gives each live pty job shown in a
// pane (as last fetched) its pane's size, for the panes whose size this
// console has not given yet; nil when there is none, while jobs are
// starting, and while the previous command is on its way: the resizes
// of one console go out one command after the other (the one that
// returns sends what changed meanwhile), for two commands in flight
// could reach the core in either order and leave the job at the older
// size (a pane 40 rows high for a moment, then 41, left the job at 40).
func (m *Model) resizeShown() tea.Cmd {
	if m.resizing {
		return nil
	}
	if m.starting > 0 {
		// The panes are about to move for the jobs on their way (the
		// launch commands start one by one): size them once those are
		// in the list.
		return nil
	}
	var reqs []resizeReq
	for _, r := range m.planned {
		s, ok := m.snapshot(r.id)
		if !ok || !s.TTY || !s.Live() || r.cols < 1 || r.rows < 1 {
			continue
		}
		want := model.TermSize{Cols: r.cols, Rows: r.rows}
		if m.sized[r.id] == want {
			continue
		}
		m.sized[r.id] = want
		reqs = append(reqs, resizeReq{id: r.id, size: want})
	}
	if len(reqs) == 0 {
		return nil
	}
	m.resizing = true
	return resizeCmd(m.ctx, m.core, reqs)
}

// resizeCmd asks the core for each resize in turn.
func resizeCmd(ctx context.Context, core Core, reqs []resizeReq) tea.Cmd {
	return func() tea.Msg {
		msg := resizedMsg{reqs: reqs, errs: make([]error, len(reqs))}
		for i, r := range reqs {
			msg.errs[i] = core.Resize(ctx, r.id, r.size)
		}
		return msg
	}
}

// onResized says what went wrong with a resize. A job that went away
// meanwhile, or a lost link (the fetches say so), is nothing to report.
func (m *Model) onResized(msg resizedMsg) {
	for i, err := range msg.errs {
		switch {
		case err == nil, errors.Is(err, model.ErrNotFound), errors.Is(err, model.ErrUnavailable):
			continue
		}
		m.setMessage("resize job "+msg.reqs[i].id.String()+" to "+msg.reqs[i].size.String()+": "+m.reword(err), true)
		m.invalidate()
	}
}

// startSizes returns the terminal size each of n jobs about to start
// gets: the size of the pane it will be shown in once it is in the list
// (the first of them selected, as a start from the palette does). A job
// that will get no pane (an overlay covers them, the terminal is too
// small) starts at the core's default size (the zero size).
func (m *Model) startSizes(n int) []model.TermSize {
	sizes := make([]model.TermSize, n)
	jobs := append([]model.Snapshot(nil), m.jobs...)
	next := model.JobID(0)
	if len(jobs) > 0 {
		next = jobs[len(jobs)-1].ID + 1
	}
	for i := range n {
		jobs = append(jobs, model.Snapshot{ID: next + model.JobID(i), State: model.StateRunning, TTY: true})
	}
	v := m.screenView()
	if n > 0 {
		v.current, v.hasCurrent = next, true
	}
	for _, r := range v.plan(jobs) {
		if i := int(r.id - next); r.id >= next && i < n && r.cols > 0 {
			sizes[i] = model.TermSize{Cols: r.cols, Rows: r.rows}
		}
	}
	return sizes
}
