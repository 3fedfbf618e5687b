package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// Messages the console sends itself.
type (
	// eventsMsg carries what the event wait returned.
	eventsMsg struct {
		events []model.Event
		err    error
	}
	// frameMsg: time to draw a frame for the output that came in.
	frameMsg struct{}
	// clockMsg: a second passed while a job is live (elapsed times).
	clockMsg struct{}
	// startedMsg: Start returned, for each command given.
	startedMsg struct {
		reports []model.Report
		errs    []error
		sizes   []model.TermSize // what each was started at
		// from is the palette that asked (nil for launch commands); its
		// result goes inline only while that palette is still open.
		from *palette
	}
	// killedMsg: Kill returned.
	killedMsg struct {
		id     model.JobID
		report model.Report
		err    error
	}
	// statusReportMsg: Status returned, for a new overlay (fetches keep
	// it current).
	statusReportMsg struct {
		id     model.JobID
		report model.Report
		err    error
	}
	// subscribedMsg: Subscribe returned.
	subscribedMsg struct {
		sub Subscription
		err error
	}
	// resolvedMsg: Resolve returned, for a palette command that takes a
	// job (/job-kill, /job-status).
	resolvedMsg struct {
		command string // the palette command's name
		id      model.JobID
		err     error
		from    *palette // the palette that asked
	}
)

// subscribeCmd subscribes to the core's events.
func subscribeCmd(ctx context.Context, core Core) tea.Cmd {
	return func() tea.Msg {
		sub, err := core.Subscribe(ctx)
		return subscribedMsg{sub: sub, err: err}
	}
}

// resolveCmd resolves a palette command's job selector.
func resolveCmd(ctx context.Context, core Core, command, sel string, from *palette) tea.Cmd {
	return func() tea.Msg {
		id, err := core.Resolve(ctx, sel)
		return resolvedMsg{command: command, id: id, err: err, from: from}
	}
}

// startCmd starts specs in order, one after the other, so their IDs follow
// the order given; the console owns them, and its panes show each job's
// fate (no start wait).
func startCmd(ctx context.Context, core Core, owner string, specs []model.Spec, from *palette) tea.Cmd {
	specs = append([]model.Spec(nil), specs...)
	return func() tea.Msg { return startAll(ctx, core, owner, specs, from) }
}

func startAll(ctx context.Context, core Core, owner string, specs []model.Spec, from *palette) startedMsg {
	msg := startedMsg{from: from}
	for _, spec := range specs {
		if strings.TrimSpace(spec.Command) == "" {
			continue
		}
		spec.NoWait, spec.Owner = true, owner
		r, err := core.Start(ctx, spec)
		msg.reports = append(msg.reports, r)
		msg.errs = append(msg.errs, err)
		msg.sizes = append(msg.sizes, spec.Size)
	}
	return msg
}

// launchCmd starts the launch jobs (Options.Launch) as startCmd does, but
// none of them when a name among them belongs to a live job already (a
// session where the same Procfile runs): the error says which.
func launchCmd(ctx context.Context, core Core, owner string, specs []model.Spec) tea.Cmd {
	specs = append([]model.Spec(nil), specs...)
	return func() tea.Msg {
		if err := namesFree(ctx, core, specs); err != nil {
			return startedMsg{reports: []model.Report{{}}, errs: []error{err}}
		}
		return startAll(ctx, core, owner, specs, nil)
	}
}

// namesFree says which names of specs belong to live jobs of core, if any.
func namesFree(ctx context.Context, core Core, specs []model.Spec) error {
	if !slices.ContainsFunc(specs, func(s model.Spec) bool { return s.Name != "" }) {
		return nil
	}
	jobs, err := core.List(ctx)
	if err != nil {
		return err
	}
	var taken []string
	for _, spec := range specs {
		for _, j := range jobs {
			if spec.Name != "" && j.Live() && strings.EqualFold(j.Name, strings.TrimSpace(spec.Name)) {
				taken = append(taken, "job "+j.Label())
			}
		}
	}
	if len(taken) == 0 {
		return nil
	}
	return fmt.Errorf("%w: nothing was started: the launch's names belong to running %s; stop them first, or use them as they are",
		model.ErrDuplicate, strings.Join(taken, ", "))
}

// killCmd stops one job; it returns when the job's tree is empty.
func killCmd(ctx context.Context, core Core, id model.JobID, by string) tea.Cmd {
	return func() tea.Msg {
		r, err := core.Kill(ctx, id, model.KillOptions{By: by})
		return killedMsg{id: id, report: r, err: err}
	}
}

// statusCmd asks for a job's report for the overlay.
func statusCmd(ctx context.Context, core Core, id model.JobID) tea.Cmd {
	return func() tea.Msg {
		r, err := core.Status(ctx, id, model.StatusOptions{Lines: overlayLines})
		return statusReportMsg{id: id, report: r, err: err}
	}
}

// overlayLines is how many lines a /job-status overlay shows at most.
const overlayLines = 200

// reconnectedMsg: Reconnect returned.
type reconnectedMsg struct{ err error }

// reconnectCmd joins the session anew.
func reconnectCmd(ctx context.Context, rc Reconnecter) tea.Cmd {
	return func() tea.Msg { return reconnectedMsg{err: rc.Reconnect(ctx)} }
}
