package ui

import (
	"context"

	"github.com/jobdeck/jobdeck/model"
)

// Core is what the console needs from the jobs core. The in-process
// adapter of package main wraps *jobs.Table; a session client (a core in
// another process, behind a socket) is the other implementation, so every
// method takes a context and may fail: a lost link is an error wrapping
// model.ErrUnavailable. Errors of the core itself wrap model's sentinels
// (model.ErrNotFound, model.ErrLimit, …; bad inputs as *model.InputError).
// Methods may block (a remote call); the console calls them only from
// tea.Cmds, never while it draws. Every method must be safe for concurrent
// use.
type Core interface {
	// List returns a snapshot of every job, in ID order.
	List(ctx context.Context) ([]model.Snapshot, error)
	// Read returns lines of one job's ring, without waiting for new ones.
	Read(ctx context.Context, id model.JobID, req model.ReadRequest) (model.Page, error)
	// ReadMany reads several rings in one call (a frame's panes): pages[i]
	// answers reqs[i], a job that cannot be read with its error's code in
	// Err. The error is the call's (a lost link).
	ReadMany(ctx context.Context, reqs []model.JobRead) ([]model.JobPage, error)
	// Frame is what one frame shows, in one call (for a session, one
	// round trip): the list as List returns it, then pages[i] for
	// reqs[i] as ReadMany reads them, except that a read whose Seen is
	// the job's progress as listed is answered Same without reading.
	Frame(ctx context.Context, reqs []model.JobRead) ([]model.Snapshot, []model.JobPage, error)
	// Start starts a job and returns its first report (it may wait a
	// moment so that a command that dies at once is reported as dead).
	Start(ctx context.Context, spec model.Spec) (model.Report, error)
	// Resolve turns a selector (an ID or a case-insensitive name) into an
	// ID; the console then works by ID.
	Resolve(ctx context.Context, sel string) (model.JobID, error)
	// Status returns the report of job id.
	Status(ctx context.Context, id model.JobID, opts model.StatusOptions) (model.Report, error)
	// Kill stops job id and everything it started; it returns when the
	// tree is empty.
	Kill(ctx context.Context, id model.JobID, opts model.KillOptions) (model.Report, error)
	// Restart stops job id's tree as Kill does (when it is live), then
	// starts the same command again, with the same name, directory and
	// environment, as a new job; the report is the new run's, whose
	// Snapshot.RestartOf names the old run (which stays readable). A job
	// being stopped is refused (model.ErrRunning).
	Restart(ctx context.Context, id model.JobID, opts model.RestartOptions) (model.Report, error)
	// Remove takes finished job id out of the list (model.ErrRunning
	// while any process of it may run).
	Remove(ctx context.Context, id model.JobID) error
	// Clear removes every finished job and returns their IDs.
	Clear(ctx context.Context) ([]model.JobID, error)
	// Resize sets the size of job id's terminal (its pty) and sends the
	// job SIGWINCH; the console gives each job shown in a pane that
	// pane's size. A job with no pty, or one that is over, has nothing to
	// size: that is not an error.
	Resize(ctx context.Context, id model.JobID, size model.TermSize) error
	// Subscribe returns a new subscription to every job's events; the
	// console closes it when it stops.
	Subscribe(ctx context.Context) (Subscription, error)
	// Session describes the session the core belongs to and who else is
	// attached to it (model.SessionInfo.Private for a core of this
	// process's own). A change of the attached clients arrives as an
	// EventSession.
	Session(ctx context.Context) (model.SessionInfo, error)
}

// Reconnecter is implemented by a core that can be reached again after
// its link was lost: Reconnect joins the session anew (starting a new one
// when the old one is gone for good). The console offers it on a lost
// link; after it succeeds, the console subscribes and fetches again.
type Reconnecter interface {
	Reconnect(ctx context.Context) error
}

// Subscription delivers the core's events. State events must never be
// lost; output events may be coalesced. Delivery must never block the
// core.
type Subscription interface {
	// Wait blocks until events are waiting and takes them, oldest first.
	// It returns ctx's error when ctx ends first, and an error once the
	// subscription or the core is closed (wrapping model.ErrClosed) or the
	// link to it is lost (wrapping model.ErrUnavailable).
	Wait(ctx context.Context) ([]model.Event, error)
	// Close ends the subscription; a blocked Wait returns.
	Close() error
}
