package jobs

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// Defaults of Options.
const (
	DefaultMaxRunning  = 8
	DefaultMaxFinished = 32
	DefaultStartWait   = 300 * time.Millisecond
	DefaultGrace       = 5 * time.Second
)

// Options configure a Table. The zero value is usable.
type Options struct {
	// Dir is the default working directory of jobs; empty means the
	// process's working directory when New is called.
	Dir string
	// Env is the base environment of jobs; nil means os.Environ().
	Env []string
	// MaxRunning is the most live jobs at once; zero means 8.
	MaxRunning int
	// MaxFinished is how many finished jobs stay readable; past it the
	// oldest finished job is dropped. Zero means 32.
	MaxFinished int
	// StartWait is how long Start waits before answering, so that a
	// command that dies at once is reported dead with its output. Zero
	// means 300 ms; negative means do not wait.
	StartWait time.Duration
	// Grace is the default time between SIGTERM and SIGKILL; zero means 5 s.
	Grace time.Duration
	// SupervisorExe and SupervisorArgs start the per-job supervisor; empty
	// means "/proc/self/exe" with supervisor.Arg, which works for the
	// jobdeck binary and for test binaries whose TestMain dispatches
	// supervisor.Arg to supervisor.Main.
	SupervisorExe  string
	SupervisorArgs []string
}

// Table is the jobs core: every job of one jobdeck process. All methods are
// safe for concurrent use.
type Table struct {
	opts Options

	mu   sync.Mutex
	jobs []*job // in ID order, finished ones included until dropped

	subMu sync.Mutex
	subs  map[*Subscription]struct{}
}

// job is one entry of the table.
type job struct{}

// New returns an empty Table.
func New(opts Options) (*Table, error) {
	return &Table{opts: opts, subs: map[*Subscription]struct{}{}}, nil
}

var errTODO = errors.New("not implemented yet")

// Start starts spec as a new job and returns its report after a short wait
// (Options.StartWait), so that a command that dies at once is reported as
// exited with its output. Errors (wrapping ErrBadSpec, ErrLimit,
// ErrDuplicate or ErrClosed) leave nothing started.
func (t *Table) Start(ctx context.Context, spec model.Spec) (model.Report, error) {
	return model.Report{}, errTODO
}

// Status returns the report of the job that sel names (an ID or a name),
// with its newest lines, or with opts.HasSince the lines after opts.Since.
// With opts.Wait it first waits until the job's leader exits or, with
// opts.Until, until a new line matches; Report.Wait says which happened.
// Errors wrap ErrNotFound, ErrAmbiguous or ErrBadRequest.
func (t *Table) Status(ctx context.Context, sel string, opts model.StatusOptions) (model.Report, error) {
	return model.Report{}, errTODO
}

// List returns a snapshot of every job in the table, in ID order.
func (t *Table) List() []model.Snapshot { return nil }

// Snapshot returns one job's snapshot; false when the ID is unknown.
func (t *Table) Snapshot(id model.JobID) (model.Snapshot, bool) { return model.Snapshot{}, false }

// Resolve turns a selector (an ID, or a case-insensitive name) into an ID.
// Errors wrap ErrNotFound or ErrAmbiguous.
func (t *Table) Resolve(sel string) (model.JobID, error) { return 0, errTODO }

// Read returns lines of one job's ring (see model.ReadRequest). It never
// waits. Errors wrap ErrNotFound.
func (t *Table) Read(id model.JobID, req model.ReadRequest) (model.Page, error) {
	return model.Page{}, errTODO
}

// Kill stops the job that sel names and everything it started: SIGTERM and
// SIGCONT to every process, the grace period, then SIGKILL until the tree is
// empty. It returns when the tree is empty, with the final report. Killing a
// finished job returns its report. Errors wrap ErrNotFound or ErrAmbiguous,
// or are ctx's error when ctx ends first (the stop goes on).
func (t *Table) Kill(ctx context.Context, sel string, opts model.KillOptions) (model.Report, error) {
	return model.Report{}, errTODO
}

// Close stops every job in parallel and returns when every tree is empty or
// ctx ends. After Close, Start returns ErrClosed.
func (t *Table) Close(ctx context.Context) error { return nil }
