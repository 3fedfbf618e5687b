package ui

import (
	"context"
	"slices"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

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
	initial    []model.Spec
	version    string
	owner      string // who the console says it is: Spec.Owner, KillOptions.By

	width, height int
	typeahead     []tea.Msg        // keys typed while a /background starts
	jobs          []model.Snapshot // the core's List, as last fetched
	current       model.JobID      // the selected job (list) and focused pane
	hasCurrent    bool
	scroll        map[model.JobID]uint64         // a paused pane's top seq; absent = following
	sized         map[model.JobID]model.TermSize // the size this console last gave each job's pty
	resizing      bool                           // a resize command is on its way (resize.go)
	wrap          map[model.JobID]bool           // panes whose long lines wrap (w)
	mouseOff      bool                           // the mouse is off: the terminal selects (mouse.go)
	search        *search                        // the active search (search.go); nil: none
	searchHistory []string                       // patterns searched, oldest first
	zoomed        bool
	help          help.Model

	// What the panes show, as last fetched (see fetch.go): each pane's
	// window, and the reads they answered.
	windows   map[model.JobID]paneWindow
	planned   []paneReq
	fetching  bool      // a fetch is in flight
	lastFetch time.Time // when the last fetch was asked for (fx.clock)
	// Output pacing (pace.go): when output last came in, and since when
	// it has come in every frame.
	lastOutput, floodSince time.Time
	refetch                bool   // fetch again when it returns
	linkErr                string // why the last fetch failed; "" once one works
	synced                 bool   // a fetch has brought the job list
	starting               int    // start commands on their way
	quitAsked              bool   // quit was asked before the console knew what runs

	// The session the core belongs to, as last fetched, and whether the
	// link to it is gone (then only q and, for a core that can,
	// r for reconnect act).
	session      model.SessionInfo
	lost         string    // why the link was lost; "" while it is up
	lostAt       time.Time // when: what the screen shows stands still there
	reconnecting bool

	palette  *palette
	history  []string
	confirm  *confirm
	overlay  *overlay
	message  string
	msgErr   bool
	recent   []logged             // the last status messages, for the full help (status.go)
	msgJob   *model.JobID         // the status line shows this job's live header
	stopping map[model.JobID]bool // kills in flight
	// restarting are restarts in flight, by the old run's ID (restart.go).
	restarting map[model.JobID]bool
	quitting   bool // stopping every job, then quit

	// Redraw machinery: View renders only when gen moved since the cached
	// frame; an output event only schedules a frame.
	gen     uint64
	footGen uint64 // moves when only the footer changed (typing in the palette)
	cache   struct {
		gen, footGen uint64
		ok           bool
		footer       rect // where the footer was drawn
		footOff      int  // where in frame the footer's rows start
		content      string
	}
	helpCache struct {
		key  helpKey
		ok   bool
		view string
	}
	frame          []byte // the last frame's bytes (frame.go), reused
	scratch        []byte // a line's sanitised text while it is drawn
	frameDue       bool   // a frame tick is scheduled
	clockDue       bool   // the 1 s elapsed-time tick is scheduled
	waiting        bool   // a Wait command is outstanding
	waitAfterFrame bool   // re-arm Wait when the frame comes
	fx             effects
}

// effects are the console's time, event and fetch sources; tests replace
// them (ticks held until fired, waits pumped by hand, fetches run at once).
type effects struct {
	// clock paces frames (time.Now; tests hold it still).
	clock func() time.Time
	tick  func(d time.Duration, msg tea.Msg) tea.Cmd
	wait  func(ctx context.Context, sub Subscription) tea.Cmd
	fetch func(ctx context.Context, core Core, v screenView, overlay *model.JobID) tea.Cmd
}

func realEffects() effects {
	return effects{
		clock: time.Now,
		tick: func(d time.Duration, msg tea.Msg) tea.Cmd {
			return tea.Tick(d, func(time.Time) tea.Msg { return msg })
		},
		wait: func(ctx context.Context, sub Subscription) tea.Cmd {
			return func() tea.Msg {
				evs, err := sub.Wait(ctx)
				return eventsMsg{events: evs, err: err}
			}
		},
		fetch: func(ctx context.Context, core Core, v screenView, overlay *model.JobID) tea.Cmd {
			return func() tea.Msg { return fetch(ctx, core, v, overlay) }
		},
	}
}

// New returns the console's model for core. ctx bounds the commands it
// runs (fetches, starts, kills, status requests, the event wait). It calls
// nothing of the core: Init subscribes to events and fetches the job list
// in commands.
func New(ctx context.Context, core Core, opts Options) *Model {
	m := &Model{
		core:       core,
		ctx:        ctx,
		keys:       opts.KeyMap,
		st:         NewStyles(opts.NoColor),
		now:        opts.Now,
		maxRunning: opts.MaxRunning,
		initial:    opts.Launch,
		version:    opts.Version,
		owner:      opts.Owner,
		scroll:     map[model.JobID]uint64{},
		sized:      map[model.JobID]model.TermSize{},
		wrap:       map[model.JobID]bool{},
		windows:    map[model.JobID]paneWindow{},
		stopping:   map[model.JobID]bool{},
		restarting: map[model.JobID]bool{},
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
	m.syncMouseHelp()
	return m
}

// Close ends the model's event subscription. Run calls it; tests that call
// Init call it too.
func (m *Model) Close() {
	if m.sub != nil {
		_ = m.sub.Close() // nothing more to hear: an error changes nothing
	}
}

// Init subscribes to the core's events, fetches what the screen shows, and
// starts the commands given in Options (in order, one after the other),
// all in commands.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{subscribeCmd(m.ctx, m.core), m.requestFetch()}
	if len(m.initial) > 0 {
		// The launch commands start once the terminal's size is known,
		// so each starts at the size of its pane (launchMsg starts them
		// anyway when no size comes).
		m.starting++
		cmds = append(cmds, m.fx.tick(launchWait, launchMsg{}))
	}
	return tea.Batch(cmds...)
}

// launchWait is how long the launch commands wait for the terminal's size
// at most.
const launchWait = 250 * time.Millisecond

// launchMsg: start the launch commands now, whether the terminal's size
// came or not.
type launchMsg struct{}

// launch starts the launch commands, once, at the sizes of the panes they
// will get.
func (m *Model) launch() tea.Cmd {
	if len(m.initial) == 0 {
		return nil
	}
	specs := slices.Clone(m.initial)
	for i, size := range m.startSizes(len(specs)) {
		specs[i].Size = size
	}
	m.initial = nil
	return launchCmd(m.ctx, m.core, m.owner, specs)
}

// invalidate marks the screen as changed: the next View renders.
func (m *Model) invalidate() { m.gen++ }

// invalidateFooter marks the footer (the palette's line) changed and
// nothing else: View redraws the footer rows only, so typing costs the
// same however busy the panes are.
func (m *Model) invalidateFooter() { m.footGen++ }

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

// layout returns the screen layout for the current size and state.
func (m *Model) layout() screenLayout { return m.screenView().layout(m.jobs) }

// paneJobs returns the jobs shown in panes (see paneJobs).
func (m *Model) paneJobs() []model.Snapshot { return paneJobs(m.jobs, m.current, m.hasCurrent) }

// paneRects returns the shown panes and where they go.
func (m *Model) paneRects() ([]model.Snapshot, []rect) { return m.screenView().panes(m.jobs) }

// focusedRows returns the number of body rows of the selected job's pane,
// or 0 when it has none.
func (m *Model) focusedRows() int {
	shown, rects := m.paneRects()
	for i, s := range shown {
		if m.hasCurrent && s.ID == m.current {
			return max(rects[i].h-2, 0)
		}
	}
	return 0
}

// others are the clients attached to the session besides this console.
func (m *Model) others() []model.Client {
	if m.session.Private {
		return nil
	}
	return m.session.Others()
}
