package ui

import (
	"context"
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

// startCmd starts commands in order, one after the other, so their IDs
// follow the order given.
func startCmd(ctx context.Context, core Core, owner string, commands []string, from *palette) tea.Cmd {
	commands = append([]string(nil), commands...)
	return func() tea.Msg {
		msg := startedMsg{from: from}
		for _, c := range commands {
			if strings.TrimSpace(c) == "" {
				continue
			}
			// No wait for an instant death: its pane shows the job's fate.
			r, err := core.Start(ctx, model.Spec{Command: c, NoWait: true, Owner: owner})
			msg.reports = append(msg.reports, r)
			msg.errs = append(msg.errs, err)
		}
		return msg
	}
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
