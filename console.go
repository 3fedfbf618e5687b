//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/jobdeck/jobdeck/jobs"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/session"
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

// ReadMany reads several rings.
func (c consoleCore) ReadMany(_ context.Context, reqs []model.JobRead) ([]model.JobPage, error) {
	return c.t.ReadMany(reqs), nil
}

// Frame lists the jobs and reads a frame's rings.
func (c consoleCore) Frame(_ context.Context, reqs []model.JobRead) ([]model.Snapshot, []model.JobPage, error) {
	jobs, pages := c.t.Frame(reqs)
	return jobs, pages, nil
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

// Restart stops job id (when live) and starts its command again.
func (c consoleCore) Restart(ctx context.Context, id model.JobID, opts model.RestartOptions) (model.Report, error) {
	return c.t.Restart(ctx, id, opts)
}

// Remove takes finished job id out of the list.
func (c consoleCore) Remove(_ context.Context, id model.JobID) error { return c.t.Remove(id) }

// Clear removes every finished job.
func (c consoleCore) Clear(context.Context) ([]model.JobID, error) { return c.t.Clear(), nil }

// Resize sizes job id's pty.
func (c consoleCore) Resize(_ context.Context, id model.JobID, size model.TermSize) error {
	return c.t.Resize(id, size)
}

// Subscribe subscribes to the table's events.
func (c consoleCore) Subscribe(context.Context) (ui.Subscription, error) {
	return subscription{c.t.Subscribe()}, nil
}

// Session says the core is this process's own.
func (c consoleCore) Session(context.Context) (model.SessionInfo, error) {
	return model.SessionInfo{Private: true}, nil
}

// subscription adapts *jobs.Subscription to ui.Subscription.
type subscription struct{ *jobs.Subscription }

// Close ends the subscription; it never fails.
func (s subscription) Close() error {
	s.Subscription.Close()
	return nil
}

// runConsole runs the terminal UI until the user quits; launch starts as
// jobs at once. The caller stops whatever is still running afterwards.
func runConsole(ctx context.Context, table *jobs.Table, launch []model.Spec) error {
	return ui.Run(ctx, consoleCore{table}, ui.Options{
		KeyMap:     defaultKeyMap(),
		Launch:     launch,
		Version:    session.Version(),
		NoColor:    os.Getenv("NO_COLOR") != "",
		MaxRunning: jobs.DefaultMaxRunning,
	})
}

// remoteCore adapts a session's core (*session.Remote) to ui.Core: every
// call is a round trip to the session process, and a lost link is an
// error wrapping model.ErrUnavailable. Reconnect joins again (starting a
// new session when the old one is gone) and swaps the link.
type remoteCore struct {
	opts session.JoinOptions
	mu   sync.Mutex
	r    *session.Remote
}

var (
	_ ui.Core        = (*remoteCore)(nil)
	_ ui.Reconnecter = (*remoteCore)(nil)
)

func (c *remoteCore) remote() *session.Remote {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.r
}

// List returns every job's snapshot.
func (c *remoteCore) List(ctx context.Context) ([]model.Snapshot, error) {
	jobs, _, err := c.remote().List(ctx)
	return jobs, err
}

// Read returns lines of job id's ring.
func (c *remoteCore) Read(ctx context.Context, id model.JobID, req model.ReadRequest) (model.Page, error) {
	return c.remote().Read(ctx, id, req)
}

// ReadMany reads several rings of the session in one round trip.
func (c *remoteCore) ReadMany(ctx context.Context, reqs []model.JobRead) ([]model.JobPage, error) {
	return c.remote().ReadMany(ctx, reqs)
}

// Frame lists the session's jobs and reads a frame's rings in one round
// trip.
func (c *remoteCore) Frame(ctx context.Context, reqs []model.JobRead) ([]model.Snapshot, []model.JobPage, error) {
	return c.remote().Frame(ctx, reqs)
}

// Start starts a job in the session, where and with what this console runs.
func (c *remoteCore) Start(ctx context.Context, spec model.Spec) (model.Report, error) {
	return c.remote().Start(ctx, spec)
}

// Resolve turns a selector into an ID.
func (c *remoteCore) Resolve(ctx context.Context, sel string) (model.JobID, error) {
	return c.remote().Resolve(ctx, sel)
}

// Status returns job id's report.
func (c *remoteCore) Status(ctx context.Context, id model.JobID, opts model.StatusOptions) (model.Report, error) {
	return c.remote().Status(ctx, id, opts)
}

// Kill stops job id and its tree.
func (c *remoteCore) Kill(ctx context.Context, id model.JobID, opts model.KillOptions) (model.Report, error) {
	return c.remote().Kill(ctx, id, opts)
}

// Restart stops job id (when live) and starts its command again, in the
// session.
func (c *remoteCore) Restart(ctx context.Context, id model.JobID, opts model.RestartOptions) (model.Report, error) {
	return c.remote().Restart(ctx, id, opts)
}

// Remove takes finished job id out of the session's list.
func (c *remoteCore) Remove(ctx context.Context, id model.JobID) error {
	return c.remote().Remove(ctx, id)
}

// Clear removes every finished job of the session.
func (c *remoteCore) Clear(ctx context.Context) ([]model.JobID, error) {
	return c.remote().Clear(ctx)
}

// Resize sizes job id's pty in the session.
func (c *remoteCore) Resize(ctx context.Context, id model.JobID, size model.TermSize) error {
	return c.remote().Resize(ctx, id, size)
}

// Subscribe subscribes to the session's events.
func (c *remoteCore) Subscribe(context.Context) (ui.Subscription, error) {
	return remoteSubscription{c.remote().Subscribe()}, nil
}

// Session describes the session and its attached clients (kept current by
// the session's notifications: no round trip).
func (c *remoteCore) Session(context.Context) (model.SessionInfo, error) {
	r := c.remote()
	if err := r.Err(); err != nil {
		return model.SessionInfo{}, err
	}
	info := r.Info()
	si := model.SessionInfo{Label: info.Label(), Short: model.OneLine(filepath.Base(info.Worktree), 0), Self: r.Welcome().Client}
	if info.Name != "" {
		si.Short = strconv.Quote(info.Name)
	}
	for _, cl := range info.Clients {
		si.Clients = append(si.Clients, model.Client{ID: cl.ID, Kind: string(cl.Kind), Name: cl.Name, PID: cl.PID})
	}
	return si, nil
}

// Reconnect joins the session again; the old link is closed.
func (c *remoteCore) Reconnect(ctx context.Context) error {
	r, err := session.Attach(ctx, c.opts)
	if err != nil {
		return err
	}
	c.mu.Lock()
	old := c.r
	c.r = r
	c.mu.Unlock()
	_ = old.Close()
	return nil
}

// Close leaves the session.
func (c *remoteCore) Close() error { return c.remote().Close() }

// remoteSubscription adapts *session.Subscription to ui.Subscription: a
// change of the attached clients is an EventSession.
type remoteSubscription struct{ s *session.Subscription }

// Wait returns the session's next events.
func (s remoteSubscription) Wait(ctx context.Context) ([]model.Event, error) {
	b, err := s.s.Wait(ctx)
	if err != nil {
		return nil, err
	}
	if b.Clients {
		b.Events = append(b.Events, model.Event{Kind: model.EventSession})
	}
	return b.Events, nil
}

// Close ends the subscription; it never fails.
func (s remoteSubscription) Close() error {
	s.s.Close()
	return nil
}

// runRemoteConsole runs the terminal UI on the session's core until the
// user quits; launch starts as jobs at once.
func runRemoteConsole(ctx context.Context, core *remoteCore, launch []model.Spec) error {
	return ui.Run(ctx, core, ui.Options{
		KeyMap:     defaultKeyMap(),
		Launch:     launch,
		Version:    session.Version(),
		NoColor:    os.Getenv("NO_COLOR") != "",
		MaxRunning: jobs.DefaultMaxRunning,
	})
}
