package ui

import (
	"context"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// Searching a job's ring while the job floods: by the time the pane reads
// the lines around a match, the ring (2000 lines, ARCHITECTURE.md §4) may
// have evicted them. So the command that searches also reads the match's
// lines at once and hands them to the pane (a pinned window, read for the
// pane's exact size and cursor): the pane keeps that window when the ring
// evicts what it shows (held, pane.go), and the match stays on screen.
// When even that read comes too late, one more request finds the first
// match the ring still holds from there on, with the lines after it, in
// one answer, and the search lands there.

// foundMsg: a search of a job's ring returned: its matches, the one the
// move lands on (cur), and the pane's window around it (pin; nil when the
// pane has no rows, or the match could not be read).
type foundMsg struct {
	job     model.JobID
	pattern string
	matches []uint64
	total   int
	lines   uint64 // the job's last complete line when it was searched
	cur     uint64
	wrapped bool
	gone    bool
	pin     *paneWindow
	err     error
}

// pickMatch returns the match of ms (ascending seqs) a move dir from match
// from lands on, whether it went around an end, and whether n found the
// older matches gone: from is older than every match the ring still holds
// (evicted, or beyond the newest searchLines), so n goes to the oldest one
// held, the nearest, instead of around to the newest (where it would stay
// while the job floods).
func pickMatch(ms []uint64, dir searchDir, from uint64) (cur uint64, wrapped, gone bool) {
	if len(ms) == 0 {
		return 0, false, false
	}
	switch dir {
	case searchOlder:
		i, _ := slices.BinarySearch(ms, from) // the first ≥ from
		switch {
		case i == 0 && ms[0] > from:
			return ms[0], false, true
		case i == 0:
			return ms[len(ms)-1], true, false
		}
		return ms[i-1], false, false
	case searchNewer:
		i, found := slices.BinarySearch(ms, from)
		if found {
			i++
		}
		if i >= len(ms) {
			return ms[0], true, false
		}
		return ms[i], false, false
	}
	return ms[len(ms)-1], false, false
}

// searchPane is the read that fills job id's pane once it is focused (a
// search focuses it): zero rows when it has none (an overlay covers the
// panes, the screen is too small).
func (m *Model) searchPane(id model.JobID) paneReq {
	v := m.screenView()
	v.current, v.hasCurrent = id, true
	for _, r := range v.plan(m.jobs) {
		if r.id == id {
			return r
		}
	}
	return paneReq{id: id}
}

// grepCmd asks the core which lines of pane.id's ring match pattern (its
// grep, over every line the ring holds), picks the match the move lands on
// and reads pane's window around it.
func grepCmd(ctx context.Context, core Core, pattern string, dir searchDir, from uint64, pane paneReq) tea.Cmd {
	return func() tea.Msg {
		id := pane.id
		r, err := core.Status(ctx, id, model.StatusOptions{Grep: pattern, Lines: searchLines, LineBytes: searchTextBytes})
		msg := foundMsg{job: id, pattern: pattern, err: err}
		if err != nil || r.Read.Grep == nil {
			return msg
		}
		msg.matches, msg.total, msg.lines = r.Read.Grep.Matched, r.Read.Grep.Matches, r.Job.Lines
		msg.cur, msg.wrapped, msg.gone = pickMatch(msg.matches, dir, from)
		if msg.cur != 0 && pane.rows > 0 {
			pinMatch(ctx, core, &msg, pane)
		}
		return msg
	}
}

// pinMatch reads pane's window with msg.cur a few lines below its top; if
// the ring evicted it meanwhile, the first match it still holds from there
// on becomes msg.cur, at the top of the window.
func pinMatch(ctx context.Context, core Core, msg *foundMsg, pane paneReq) {
	back := min(uint64(pane.rows/4), 3) // a few lines of context above it
	pane.top = 1
	if msg.cur > back+1 {
		pane.top = msg.cur - back
	}
	if page, err := core.Read(ctx, pane.id, windowRead(pane)); err == nil && holds(page, msg.cur) {
		w := windowOf(pane, page)
		w.key = windowKey{req: pane, lines: page.Last}
		msg.pin = &w
		return
	}
	r, err := core.Status(ctx, pane.id, model.StatusOptions{Grep: msg.pattern, HasSince: true, Since: msg.cur - 1,
		Head: 1, Context: min(pane.rows-1, model.MaxContext)})
	if err != nil || r.Read.Grep == nil || len(r.Read.Grep.Matched) == 0 || len(r.Page.Lines) == 0 {
		return
	}
	page := r.Page
	page.Dropped, page.Partial = 0, nil
	msg.cur, msg.wrapped = r.Read.Grep.Matched[0], false
	if i, found := slices.BinarySearch(msg.matches, msg.cur); !found {
		msg.matches = slices.Insert(slices.Clone(msg.matches), i, msg.cur)
	}
	pane.top = page.Lines[0].Seq
	w := windowOf(pane, page)
	w.key = windowKey{req: pane, lines: page.Last}
	msg.pin = &w
}

// holds reports whether page holds line seq.
func holds(page model.Page, seq uint64) bool {
	return slices.ContainsFunc(page.Lines, func(l model.Line) bool { return l.Seq == seq })
}

// onFound takes a search's answer: an error ends the search (and says
// why), else it lands on the match the move picked. The pane stays as it
// is when the match is among the lines it shows while following and the
// job is not flooding (its lines would scroll the match away at once);
// else it is paused on the match's window as the search read it.
func (m *Model) onFound(msg foundMsg) {
	s := m.search
	if s == nil || s.overlay || s.job != msg.job || s.pattern != msg.pattern {
		return // ended or replaced meanwhile
	}
	s.busy = false
	if msg.err != nil {
		m.search = nil
		m.setMessage("search job "+msg.job.String()+": "+m.reword(msg.err), true)
		return
	}
	s.matches, s.total = msg.matches, msg.total
	s.cur, s.wrapped, s.gone = msg.cur, msg.wrapped, msg.gone
	if s.cur == 0 {
		return
	}
	m.current, m.hasCurrent = s.job, true
	rows := uint64(m.focusedRows())
	_, paused := m.scroll[s.job]
	flooding := m.frameGap(m.fx.clock()) == floodInterval
	if !paused && !flooding && !m.wrap[s.job] && msg.lines >= s.cur && msg.lines-s.cur < rows {
		return // in view while following
	}
	if msg.pin == nil {
		m.showMatch()
		return
	}
	m.scroll[s.job] = msg.pin.key.req.top
	m.windows[s.job] = *msg.pin
}
