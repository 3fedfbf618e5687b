package ui

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// The console draws only from its own state. What it shows of the core
// (the job list, each pane's window of lines, an open /job-status report)
// is fetched by one command at a time, on the frame tick while output
// flows, at once on state events and when a key or a resize changes what
// the panes show; the result lands in the model (fetchedMsg) and View
// draws it. A core behind a socket is therefore never called while the
// screen is drawn, and a slow one only delays the next frame.

// screenView is what decides which panes show and what each reads: a copy of
// the model's view of the screen, so that a fetch command can plan from
// the job list it fetched without touching the model.
type screenView struct {
	width, height, footer int
	zoomed                bool
	covered               bool // an overlay covers the panes: nothing to read
	current               model.JobID
	hasCurrent            bool
	scroll                map[model.JobID]uint64 // a paused pane's top seq
	// prev holds the windows as last fetched (requestFetch's screenView only):
	// a fetch keeps those whose job printed nothing since.
	prev map[model.JobID]paneWindow
	// guess is the panes planned from the list before (requestFetch's
	// screenView only): their windows are read with the new list.
	guess []paneReq
}

// paneReq is one pane's read: the job, the pane's body rows and text
// columns (the size its job's terminal gets), and the seq of its top line
// (zero: following, the newest lines).
type paneReq struct {
	id         model.JobID
	rows, cols int
	top        uint64
}

// screenView copies what the model's screen looks like now.
func (m *Model) screenView() screenView {
	return screenView{
		width: m.width, height: m.height, footer: m.footerRows(), zoomed: m.zoomed,
		covered: m.overlay != nil, current: m.current, hasCurrent: m.hasCurrent,
		scroll: maps(m.scroll),
	}
}

func maps(in map[model.JobID]uint64) map[model.JobID]uint64 {
	out := make(map[model.JobID]uint64, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

// settle keeps the selection on a job of jobs: the first one when the
// selected job is gone or none is selected.
func (v screenView) settle(jobs []model.Snapshot) screenView {
	if len(jobs) == 0 {
		v.hasCurrent = false
		return v
	}
	if !v.hasCurrent || !slices.ContainsFunc(jobs, func(s model.Snapshot) bool { return s.ID == v.current }) {
		v.current, v.hasCurrent = jobs[0].ID, true
	}
	return v
}

// layout is the screen layout for jobs.
func (v screenView) layout(jobs []model.Snapshot) screenLayout {
	return layoutScreen(v.width, v.height, len(jobs), v.footer, v.zoomed && v.hasCurrent)
}

// panes returns the jobs shown in panes and where they go: the selected
// one alone when zoomed, else paneJobs in a grid.
func (v screenView) panes(jobs []model.Snapshot) ([]model.Snapshot, []rect) {
	l := v.layout(jobs)
	if v.zoomed && v.hasCurrent {
		if i := slices.IndexFunc(jobs, func(s model.Snapshot) bool { return s.ID == v.current }); i >= 0 {
			return []model.Snapshot{jobs[i]}, []rect{l.panes}
		}
	}
	shown := paneJobs(jobs, v.current, v.hasCurrent)
	return shown, gridRects(len(shown), l.panes)
}

// plan is the reads that fill the panes shown for jobs; none when the
// screen is too small or an overlay covers the panes.
func (v screenView) plan(jobs []model.Snapshot) []paneReq {
	if v.covered || tooSmall(v.width, v.height) {
		return nil
	}
	shown, rects := v.panes(jobs)
	reqs := make([]paneReq, 0, len(shown))
	for i, s := range shown {
		if rows := rects[i].h - 2; rows > 0 && rects[i].w >= 4 {
			reqs = append(reqs, paneReq{id: s.ID, rows: rows, cols: paneTextWidth(rects[i].w), top: v.scroll[s.ID]})
		}
	}
	return reqs
}

// paneJobs returns the jobs shown in panes, in ID order (a restart chain
// as one run, in its first run's place: runsShown): all of them when
// there are at most MaxPanes; else the live ones first, then the most
// recently finished, with the selected job always among them.
func paneJobs(jobs []model.Snapshot, current model.JobID, hasCurrent bool) []model.Snapshot {
	jobs = runsShown(jobs, current, hasCurrent)
	if len(jobs) <= MaxPanes {
		return jobs
	}
	ranked := slices.Clone(jobs)
	slices.SortStableFunc(ranked, func(a, b model.Snapshot) int {
		if a.Live() != b.Live() {
			if a.Live() {
				return -1
			}
			return 1
		}
		if a.Live() {
			return cmp.Compare(a.ID, b.ID)
		}
		return endTime(b).Compare(endTime(a)) // most recent first
	})
	shown := ranked[:MaxPanes]
	if i := slices.IndexFunc(jobs, func(s model.Snapshot) bool { return s.ID == current }); hasCurrent && i >= 0 &&
		!slices.ContainsFunc(shown, func(s model.Snapshot) bool { return s.ID == current }) {
		shown[MaxPanes-1] = jobs[i]
	}
	// Back in place order (ID order, but a restarted job's new run stands
	// where its chain began).
	place := func(s model.Snapshot) int {
		return slices.IndexFunc(jobs, func(j model.Snapshot) bool { return j.ID == s.ID })
	}
	slices.SortFunc(shown, func(a, b model.Snapshot) int { return cmp.Compare(place(a), place(b)) })
	return shown
}

// endTime is when a finished job ended, for ranking panes.
func endTime(s model.Snapshot) time.Time {
	if !s.Ended.IsZero() {
		return s.Ended
	}
	return s.Started
}

// fetchedMsg is what a fetch brought: the job list, the plan it read for,
// each planned pane's window, and the open overlay's newer report.
type fetchedMsg struct {
	jobs    []model.Snapshot
	plan    []paneReq
	windows map[model.JobID]paneWindow
	// report is the /job-status overlay's job's newer report (nil when no
	// overlay was open, or its job could not be read).
	report *model.Report
	// session is the session's description (who else is attached).
	session model.SessionInfo
	// err is why the list could not be read (nothing else was), or a lost
	// link met while reading windows.
	err error
}

// fetch reads what the screen shows from the core: the list, then the
// windows that v plans from that list, then the overlay's report. The
// list comes with the windows that v.guess planned from the list before
// it, in one call (Frame); only panes that the new list moves (a job came
// or went, a pane was resized) take a second one (ReadMany).
func fetch(ctx context.Context, core Core, v screenView, overlay *model.JobID) fetchedMsg {
	reads, reqs := guessReads(v.guess, v.prev)
	jobs, pages, err := core.Frame(ctx, reads)
	if err != nil {
		return fetchedMsg{err: err}
	}
	got := make(map[paneReq]model.JobPage, len(reqs)) // windows read with the list, by the pane each was read for
	for i, r := range reqs {
		if i < len(pages) {
			got[r] = pages[i]
		}
	}
	v = v.settle(jobs)
	msg := fetchedMsg{jobs: jobs, plan: v.plan(jobs), windows: map[model.JobID]paneWindow{}}
	if msg.session, err = core.Session(ctx); err != nil {
		return fetchedMsg{err: err}
	}
	if err := readWindows(ctx, core, jobs, msg.plan, v.prev, got, msg.windows); err != nil {
		return fetchedMsg{err: err}
	}
	if overlay != nil {
		if r, err := core.Status(ctx, *overlay, model.StatusOptions{Lines: overlayLines}); err == nil {
			msg.report = &r
		}
	}
	return msg
}

// requestFetch returns the command that fetches what the screen shows,
// unless one is in flight: then another follows when it returns.
func (m *Model) requestFetch() tea.Cmd {
	if m.fetching {
		m.refetch = true
		return nil
	}
	m.fetching = true
	m.lastFetch = m.fx.clock()
	var overlay *model.JobID
	if m.overlay != nil && m.overlay.job != nil {
		id := *m.overlay.job
		overlay = &id
	}
	v := m.screenView()
	v.guess = v.settle(m.jobs).plan(m.jobs)
	v.prev = make(map[model.JobID]paneWindow, len(m.windows))
	for id, w := range m.windows {
		v.prev[id] = w
	}
	return m.fx.fetch(m.ctx, m.core, v, overlay)
}

// fetchIfStale fetches when what the panes show changed (a key, a resize,
// an overlay closed) since the last fetch planned. An open overlay needs
// nothing more: its report came with it, and frames keep it current.
func (m *Model) fetchIfStale() tea.Cmd {
	if m.overlay != nil {
		return nil
	}
	if m.fetching {
		if m.planMoved() {
			m.refetch = true
		}
		return nil
	}
	if !m.planMoved() {
		return nil
	}
	return m.requestFetch()
}

// planMoved tells whether the panes, laid out now, differ from what the
// last fetch planned.
func (m *Model) planMoved() bool {
	return !slices.Equal(m.screenView().settle(m.jobs).plan(m.jobs), m.planned)
}

// onFetched takes what a fetch brought into the model.
func (m *Model) onFetched(msg fetchedMsg) tea.Cmd {
	m.fetching = false
	m.invalidate()
	if msg.err != nil {
		m.setLinkError(msg.err)
	} else {
		m.linkErr, m.synced = "", true
		m.followRestarts(m.jobs, msg.jobs)
		m.jobs = msg.jobs
		m.session = msg.session
		m.settleSelection()
		// Windows of panes not read this time (an overlay covered them)
		// stay, so that closing it redraws them at once; the next fetch
		// replaces them.
		for id, w := range msg.windows {
			m.windows[id] = m.anchored(id, w, msg.plan)
		}
		m.planned = msg.plan
		if o, r := m.overlay, msg.report; o != nil && r != nil && o.job != nil && *o.job == r.Job.ID {
			// Same report, newer: keep the reader's place.
			n := m.reportOverlay(*r)
			n.top, n.sub, n.wrap = o.top, o.sub, o.wrap
			m.overlay = n
		}
	}
	// What the fetch brought can move the panes (who else is attached
	// lengthens the status line, which takes a row from them): then its
	// plan is already old, and the jobs would keep sizes of the old
	// layout until something else fetched. Fetch again first.
	stale := msg.err == nil && m.overlay == nil && m.planMoved()
	cmds := []tea.Cmd{m.ensureClock(), m.quitWhenKnown()}
	if !stale {
		cmds = append(cmds, m.resizeShown())
	}
	if m.refetch || stale {
		m.refetch = false
		cmds = append(cmds, m.requestFetch())
	}
	return tea.Batch(cmds...)
}

// anchored moves a paused pane whose top line the ring evicted to the
// oldest line its new window shows (w.anchor), so that it stays on those
// lines while they are held (ARCHITECTURE.md §4), unless the pane moved
// meanwhile; plan (what the window was read for) moves with it, so the
// move reads nothing again.
func (m *Model) anchored(id model.JobID, w paneWindow, plan []paneReq) paneWindow {
	if w.anchor == 0 {
		return w
	}
	if top, paused := m.scroll[id]; paused && top == w.key.req.top {
		m.scroll[id] = w.anchor
		for i := range plan {
			if plan[i].id == id && plan[i].top == top {
				plan[i].top = w.anchor
			}
		}
		w.key.req.top = w.anchor
	}
	w.anchor = 0
	return w
}

// settleSelection keeps the selection on a job that exists and forgets
// the scroll of jobs that are gone.
func (m *Model) settleSelection() {
	v := m.screenView().settle(m.jobs)
	m.current, m.hasCurrent = v.current, v.hasCurrent
	gone := func(id model.JobID) bool {
		return !slices.ContainsFunc(m.jobs, func(s model.Snapshot) bool { return s.ID == id })
	}
	for id := range m.scroll {
		if gone(id) {
			delete(m.scroll, id)
		}
	}
	for id := range m.windows {
		if gone(id) {
			delete(m.windows, id)
		}
	}
	for id := range m.sized {
		if gone(id) {
			delete(m.sized, id)
		}
	}
}

// upsertJob puts a snapshot a start or a kill returned into the list at
// once, before the next fetch confirms it.
func (m *Model) upsertJob(s model.Snapshot) {
	i, found := slices.BinarySearchFunc(m.jobs, s.ID, func(a model.Snapshot, id model.JobID) int { return cmp.Compare(a.ID, id) })
	if found {
		m.jobs = slices.Clone(m.jobs)
		m.jobs[i] = s
		return
	}
	m.jobs = slices.Insert(slices.Clone(m.jobs), i, s)
}

// setLinkError shows why the core could not be read, once, in the status
// line; the screen keeps what it last fetched.
func (m *Model) setLinkError(err error) {
	text := "jobs core: " + err.Error()
	if errors.Is(err, model.ErrUnavailable) {
		text = "lost the jobs core (" + err.Error() + "); the screen shows what it last knew"
	}
	m.linkErr = model.OneLine(text, 0)
}
