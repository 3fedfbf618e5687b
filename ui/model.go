package ui

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/jobdeck/jobdeck/model"
)

// frameInterval is the shortest time between two frames while output
// flows: about 30 frames a second.
const frameInterval = time.Second / 30

// Model is the console's root Bubble Tea model. Build it with New; it is
// used through a pointer (*Model implements tea.Model). Tests drive it with
// Update (tea.KeyPressMsg, tea.WindowSizeMsg …) and read View.
type Model struct {
	core       Core
	ctx        context.Context
	sub        Subscription
	keys       KeyMap
	st         Styles
	now        func() time.Time
	maxRunning int
	initial    []string
	version    string
	owner      string // who the console says it is: Spec.Owner, KillOptions.By

	width, height int
	typeahead     []tea.Msg        // keys typed while a /background starts
	jobs          []model.Snapshot // the core's List, refreshed on events and frames
	current       model.JobID      // the selected job (list) and focused pane
	hasCurrent    bool
	scroll        map[model.JobID]uint64 // a paused pane's top seq; absent = following
	zoomed        bool
	help          help.Model

	palette    *palette
	history    []string
	confirm    *confirm
	overlay    *overlay
	message    string
	msgErr     bool
	msgJob     *model.JobID         // the status line shows this job's live header
	overlayDue bool                 // a refresh of the /job-status overlay is in flight
	stopping   map[model.JobID]bool // kills in flight
	quitting   bool                 // stopping every job, then quit

	// Redraw machinery: View renders only when gen moved since the cached
	// frame; an output event only schedules a frame.
	gen     uint64
	footGen uint64 // moves when only the footer changed (typing in the palette)
	cache   struct {
		gen, footGen uint64
		ok           bool
		rows         []string // the screen's rows, as rendered
		footer       rect     // where the footer was drawn
		content      string
	}
	frameDue       bool // a frame tick is scheduled
	clockDue       bool // the 1 s elapsed-time tick is scheduled
	waiting        bool // a Wait command is outstanding
	waitAfterFrame bool // re-arm Wait when the frame comes
	fx             effects
}

// effects are the console's time and event sources; tests replace them.
type effects struct {
	tick func(d time.Duration, msg tea.Msg) tea.Cmd
	wait func(ctx context.Context, sub Subscription) tea.Cmd
}

func realEffects() effects {
	return effects{
		tick: func(d time.Duration, msg tea.Msg) tea.Cmd {
			return tea.Tick(d, func(time.Time) tea.Msg { return msg })
		},
		wait: func(ctx context.Context, sub Subscription) tea.Cmd {
			return func() tea.Msg {
				evs, err := sub.Wait(ctx)
				return eventsMsg{events: evs, err: err}
			}
		},
	}
}

// New returns the console's model for core. ctx bounds the commands it
// runs (starts, kills, status requests, the event wait). It reads the
// core's job list at once; it subscribes to events in Init.
func New(ctx context.Context, core Core, opts Options) *Model {
	m := &Model{
		core:       core,
		ctx:        ctx,
		keys:       opts.KeyMap,
		st:         NewStyles(opts.NoColor),
		now:        opts.Now,
		maxRunning: opts.MaxRunning,
		initial:    opts.Commands,
		version:    opts.Version,
		owner:      opts.Owner,
		scroll:     map[model.JobID]uint64{},
		stopping:   map[model.JobID]bool{},
		help:       help.New(),
		fx:         realEffects(),
	}
	if m.now == nil {
		m.now = time.Now
	}
	if m.maxRunning <= 0 {
		m.maxRunning = MaxPanes
	}
	if m.owner == "" {
		m.owner = DefaultOwner
	}
	m.help.Styles = m.st.Help
	m.refresh()
	return m
}

// Close ends the model's event subscription. Run calls it; tests that call
// Init call it too.
func (m *Model) Close() {
	if m.sub != nil {
		m.sub.Close()
	}
}

// Init subscribes to the core's events, starts the commands given in
// Options (in order, one after the other) and arms the event wait.
func (m *Model) Init() tea.Cmd {
	if m.sub == nil {
		sub, err := m.core.Subscribe(m.ctx)
		if err != nil {
			m.setMessage("no events from the jobs core: "+err.Error(), true)
		}
		m.sub = sub
	}
	cmds := []tea.Cmd{m.armWait(), m.ensureClock()}
	if len(m.initial) > 0 {
		cmds = append(cmds, startCmd(m.ctx, m.core, m.owner, m.initial, nil))
		m.initial = nil
	}
	return tea.Batch(cmds...)
}

// invalidate marks the screen as changed: the next View renders.
func (m *Model) invalidate() { m.gen++ }

// invalidateFooter marks the footer (the palette's line) changed and
// nothing else: View redraws the footer rows only, so typing costs the
// same however busy the panes are.
func (m *Model) invalidateFooter() { m.footGen++ }

// refresh re-reads the job list from the core and keeps the selection on
// a job that exists.
func (m *Model) refresh() {
	jobs, err := m.core.List(m.ctx)
	if err != nil {
		m.setMessage("jobs core: "+err.Error(), true)
		return
	}
	m.jobs = jobs
	if len(m.jobs) == 0 {
		m.hasCurrent = false
		return
	}
	if !m.hasCurrent || m.currentIndex() < 0 {
		m.current, m.hasCurrent = m.jobs[0].ID, true
	}
	for id := range m.scroll {
		if !slices.ContainsFunc(m.jobs, func(s model.Snapshot) bool { return s.ID == id }) {
			delete(m.scroll, id)
		}
	}
}

// currentIndex returns the index of the selected job in m.jobs, or -1.
func (m *Model) currentIndex() int {
	if !m.hasCurrent {
		return -1
	}
	return slices.IndexFunc(m.jobs, func(s model.Snapshot) bool { return s.ID == m.current })
}

// snapshot returns the listed snapshot of id.
func (m *Model) snapshot(id model.JobID) (model.Snapshot, bool) {
	i := slices.IndexFunc(m.jobs, func(s model.Snapshot) bool { return s.ID == id })
	if i < 0 {
		return model.Snapshot{}, false
	}
	return m.jobs[i], true
}

// liveCount returns how many jobs are live.
func (m *Model) liveCount() int {
	n := 0
	for _, s := range m.jobs {
		if s.Live() {
			n++
		}
	}
	return n
}

// paneJobs returns the jobs shown in panes, in ID order: all of them when
// there are at most MaxPanes; else the live ones first, then the most
// recently finished, with the selected job always among them.
func (m *Model) paneJobs() []model.Snapshot {
	if len(m.jobs) <= MaxPanes {
		return m.jobs
	}
	ranked := slices.Clone(m.jobs)
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
	if i := m.currentIndex(); i >= 0 && !slices.ContainsFunc(shown, func(s model.Snapshot) bool { return s.ID == m.current }) {
		shown[MaxPanes-1] = m.jobs[i]
	}
	slices.SortFunc(shown, func(a, b model.Snapshot) int { return cmp.Compare(a.ID, b.ID) })
	return shown
}

// endTime is when a finished job ended, for ranking panes.
func endTime(s model.Snapshot) time.Time {
	if !s.Ended.IsZero() {
		return s.Ended
	}
	return s.Started
}

// layout returns the screen layout for the current size and state.
func (m *Model) layout() screenLayout {
	return layoutScreen(m.width, m.height, len(m.jobs), m.footerRows(), m.zoomed && m.hasCurrent)
}

// paneRects returns the shown panes and where they go.
func (m *Model) paneRects(l screenLayout) ([]model.Snapshot, []rect) {
	if m.zoomed && m.hasCurrent {
		if s, ok := m.snapshot(m.current); ok {
			return []model.Snapshot{s}, []rect{l.panes}
		}
	}
	shown := m.paneJobs()
	return shown, gridRects(len(shown), l.panes)
}

// focusedRows returns the number of body rows of the selected job's pane,
// or 0 when it has none.
func (m *Model) focusedRows() int {
	shown, rects := m.paneRects(m.layout())
	for i, s := range shown {
		if m.hasCurrent && s.ID == m.current {
			return max(rects[i].h-2, 0)
		}
	}
	return 0
}

// View returns the screen. It renders only when something visible changed
// since the last call (a key, a frame, a state event, the clock);
// otherwise it returns the same content, which the renderer skips.
func (m *Model) View() tea.View {
	switch {
	case !m.cache.ok || m.cache.gen != m.gen:
		m.cache.rows, m.cache.footer = m.render()
		m.cache.content = strings.Join(m.cache.rows, "\n")
		m.cache.gen, m.cache.footGen, m.cache.ok = m.gen, m.footGen, true
	case m.cache.footGen != m.footGen:
		m.cache.footGen = m.footGen
		l := m.layout()
		if tooSmall(m.width, m.height) || l.footer != m.cache.footer || l.footer.x != 0 || l.footer.w != m.width {
			m.cache.rows, m.cache.footer = m.render()
		} else {
			foot := m.renderFooter(l.footer.w, l.footer.h)
			for i := 0; i < l.footer.h && l.footer.y+i < len(m.cache.rows); i++ {
				line := ""
				if i < len(foot) {
					line = foot[i]
				}
				m.cache.rows[l.footer.y+i] = line
			}
		}
		m.cache.content = strings.Join(m.cache.rows, "\n")
	}
	v := tea.NewView(m.cache.content)
	v.AltScreen = true
	v.WindowTitle = "jobdeck"
	if m.palette != nil && !tooSmall(m.width, m.height) {
		if c := m.palette.cursor(); c != nil {
			l := m.layout()
			c.Y += l.footer.y
			v.Cursor = c
		}
	}
	return v
}

// render draws the whole screen: exactly height rows of width cells, and
// says where the footer is.
func (m *Model) render() ([]string, rect) {
	if m.width <= 0 || m.height <= 0 {
		return nil, rect{}
	}
	if tooSmall(m.width, m.height) {
		return strings.Split(m.renderTooSmall(), "\n"), rect{}
	}
	l := m.layout()
	rows := make([]string, m.height)
	// Each part is a rect's rows; placing the parts in x order builds
	// every screen row left to right.
	var parts []placed
	add := func(r rect, lines []string) { parts = append(parts, placed{r, lines}) }
	if l.list.w > 0 && l.list.h > 0 {
		add(l.list, m.renderList(l.list))
	}
	switch {
	case m.overlay != nil:
		add(l.panes, m.renderOverlay(m.overlay, l.panes))
	case len(m.jobs) == 0:
		add(l.panes, m.renderEmpty(l.panes))
	default:
		shown, rects := m.paneRects(l)
		for i, s := range shown {
			p := paneView{
				snap:    s,
				num:     i + 1,
				top:     m.scroll[s.ID],
				focused: m.hasCurrent && s.ID == m.current,
				zoomed:  m.zoomed,
			}
			add(rects[i], m.renderPane(p, rects[i]))
		}
	}
	add(l.footer, m.renderFooter(l.footer.w, l.footer.h))
	slices.SortStableFunc(parts, func(a, b placed) int { return cmp.Compare(a.r.x, b.r.x) })
	for _, p := range parts {
		for i, s := range p.lines {
			if i < p.r.h && p.r.y+i < len(rows) {
				rows[p.r.y+i] += s
			}
		}
	}
	return rows, l.footer
}

// placed is a part of the screen: the rows drawn for a rect.
type placed struct {
	r     rect
	lines []string
}

// renderTooSmall is the plain message shown below the minimum size.
func (m *Model) renderTooSmall() string {
	msg := "terminal too small: " + strconv.Itoa(m.width) + "×" + strconv.Itoa(m.height) +
		", need " + strconv.Itoa(MinWidth) + "×" + strconv.Itoa(MinHeight)
	lines := make([]string, m.height)
	for i := range lines {
		lines[i] = spaces(m.width)
	}
	msgLines := strings.Split(ansi.Wrap(msg, m.width, ""), "\n")
	for i, l := range msgLines {
		if y := max((m.height-len(msgLines))/2, 0) + i; y < m.height {
			lines[y] = fit(l, m.width)
		}
	}
	return strings.Join(lines, "\n")
}

// renderEmpty fills the pane area of an empty console with its hint.
func (m *Model) renderEmpty(r rect) []string {
	out := make([]string, r.h)
	for i := range out {
		out[i] = spaces(r.w)
	}
	if r.h > 0 {
		hint := "No jobs yet: press / and type background <command> to start one (? for keys)."
		out[r.h/2] = m.st.Dim.Render(fit("  "+hint, r.w))
	}
	return out
}
