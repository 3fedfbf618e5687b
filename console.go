package main

import (
	"context"
	"os"

	"github.com/jobdeck/jobdeck/jobs"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ui"
)

// consoleCore adapts *jobs.Table to ui.Core: the in-process core, which
// never loses its link, so only the core's own errors come back.
type consoleCore struct{ t *jobs.Table }

var _ ui.Core = consoleCore{}

// List returns every job's snapshot.
func (c consoleCore) List(context.Context) ([]model.Snapshot, error) { return c.t.List(), nil }

// Read returns lines of job id's ring.
func (c consoleCore) Read(_ context.Context, id model.JobID, req model.ReadRequest) (model.Page, error) {
	return c.t.Read(id, req)
}

// Start starts a job.
func (c consoleCore) Start(ctx context.Context, spec model.Spec) (model.Report, error) {
	return c.t.Start(ctx, spec)
}

// Resolve turns a selector into an ID.
func (c consoleCore) Resolve(_ context.Context, sel string) (model.JobID, error) {
	return c.t.Resolve(sel)
}

// Status returns job id's report.
func (c consoleCore) Status(ctx context.Context, id model.JobID, opts model.StatusOptions) (model.Report, error) {
	return c.t.Status(ctx, id, opts)
}

// Kill stops job id and its tree.
func (c consoleCore) Kill(ctx context.Context, id model.JobID, opts model.KillOptions) (model.Report, error) {
	return c.t.Kill(ctx, id, opts)
}

// Subscribe subscribes to the table's events.
func (c consoleCore) Subscribe(context.Context) (ui.Subscription, error) {
	return subscription{c.t.Subscribe()}, nil
}

// subscription adapts *jobs.Subscription to ui.Subscription.
type subscription struct{ *jobs.Subscription }

// Close ends the subscription; it never fails.
func (s subscription) Close() error {
	s.Subscription.Close()
	return nil
}

// runConsole runs the terminal UI until the user quits; commands start as
// jobs at launch. The caller stops whatever is still running afterwards.
func runConsole(ctx context.Context, table *jobs.Table, commands []string) error {
	return ui.Run(ctx, consoleCore{table}, ui.Options{
		KeyMap:     defaultKeyMap(),
		Commands:   commands,
		NoColor:    os.Getenv("NO_COLOR") != "",
		MaxRunning: jobs.DefaultMaxRunning,
	})
}
