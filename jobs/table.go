package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/supervisor"
)

// Defaults of Options.
const (
	// DefaultMaxRunning is the most live jobs at once.
	DefaultMaxRunning = 8
	// DefaultMaxFinished is how many finished jobs stay readable.
	DefaultMaxFinished = 32
	// DefaultStartWait is how long Start waits before it answers.
	DefaultStartWait = 300 * time.Millisecond
	// DefaultGrace is the time between SIGTERM and SIGKILL when neither
	// Options nor the spec says otherwise (model.DefaultGrace).
	DefaultGrace = model.DefaultGrace
	// killMargin is how long Kill waits beyond the grace before it gives up
	// waiting for an empty tree (the stop itself goes on).
	killMargin = 10 * time.Second
)

// ShutdownBy is what Stop.By says for the stops of Close: jobdeck itself
// was shutting down.
const ShutdownBy = "jobdeck"

// Options configure a Table. The zero value is usable.
type Options struct {
	// Dir is the default working directory of jobs; empty means the
	// process's working directory when New is called.
	Dir string
	// Env is the default base environment of jobs (Spec.Env overrides it
	// per job); nil means os.Environ().
	Env []string
	// MaxRunning is the most live jobs at once; zero means 8.
	MaxRunning int
	// MaxFinished is how many finished jobs stay readable; past it the
	// oldest finished job is dropped. Zero means 32.
	MaxFinished int
	// StartWait is how long Start waits before answering, so that a
	// command that dies at once is reported as exited with its output. Zero
	// means 300 ms; negative means do not wait.
	StartWait time.Duration
	// Grace is the default time between SIGTERM and SIGKILL: nil means
	// model.DefaultGrace, zero means none (SIGKILL at once); at most
	// model.MaxGrace.
	Grace *time.Duration
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
	opts    Options
	grace   time.Duration // the default grace, resolved
	session string        // marks this process's jobs (environment, cgroup names)

	mu      sync.Mutex
	jobs    []*job // in ID order; finished ones until dropped
	nextID  model.JobID
	dropped int                  // finished jobs dropped past MaxFinished
	removed map[model.JobID]bool // finished jobs removed on request (Remove, Clear)
	// removedNames: the newest removed job of each name (lower case), so
	// that a name asked for after it is said to be removed, not unknown.
	removedNames map[string]model.JobID
	closed       bool

	// goroutines counts every goroutine of every job (wg.Go); lives
	// counts jobs not done yet (Add at Start, Done when the tree is empty
	// and the output read). Close waits for both.
	goroutines sync.WaitGroup
	lives      sync.WaitGroup

	subMu sync.Mutex
	subs  map[*Subscription]struct{}

	portScan portScanner // the listening-ports scanner (ports.go)
	ingest   ingestPool  // the ingest goroutines (ingest.go)
}

// New returns an empty Table. It fails when the default directory cannot
// be found or Options.Grace is out of range.
func New(opts Options) (*Table, error) {
	if opts.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("find the working directory: %w", err)
		}
		opts.Dir = wd
	}
	if abs, err := filepath.Abs(opts.Dir); err == nil {
		opts.Dir = abs
	}
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	if opts.MaxRunning <= 0 {
		opts.MaxRunning = DefaultMaxRunning
	}
	if opts.MaxFinished <= 0 {
		opts.MaxFinished = DefaultMaxFinished
	}
	if opts.StartWait == 0 {
		opts.StartWait = DefaultStartWait
	}
	grace := model.DefaultGrace
	if opts.Grace != nil {
		if err := model.CheckGrace(*opts.Grace, model.ErrBadSpec); err != nil {
			return nil, err
		}
		grace = *opts.Grace
	}
	var id [6]byte
	_, _ = rand.Read(id[:])
	t := &Table{
		opts:         opts,
		grace:        grace,
		session:      fmt.Sprintf("%d-%s", os.Getpid(), hex.EncodeToString(id[:])),
		subs:         map[*Subscription]struct{}{},
		removed:      map[model.JobID]bool{},
		removedNames: map[string]model.JobID{},
	}
	t.ingest.wg = &t.goroutines
	return t, nil
}

// Session is the marker of this table's jobs: every process of every job
// carries JOBDECK_SESSION=<Session> in its environment.
func (t *Table) Session() string { return t.session }

// Start starts spec as a new job and returns its report after a short wait
// (Options.StartWait, unless spec.NoWait), so that a command that dies at
// once is reported as exited with its output. Errors (wrapping
// model.ErrBadSpec as an *model.InputError, ErrLimit, ErrDuplicate or
// ErrClosed) leave nothing started. A job whose shell could not be started
// at all is kept in StateFailed with the reason in Snapshot.Err, and is not
// an error.
func (t *Table) Start(ctx context.Context, spec model.Spec) (model.Report, error) {
	return t.start(ctx, spec, nil)
}

// start is Start; prev, when set, is the job the new one is a restart of
// (Snapshot.RestartOf).
func (t *Table) start(ctx context.Context, spec model.Spec, prev *model.JobID) (model.Report, error) {
	spec, grace, err := t.checkSpec(spec)
	if err != nil {
		return model.Report{}, err
	}
	realDir := canonicalDir(spec.Dir) // outside the lock: it reads the filesystem
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return model.Report{}, fmt.Errorf("%w: jobdeck is shutting down", ErrClosed)
	}
	if err := t.admit(spec, realDir); err != nil {
		t.mu.Unlock()
		return model.Report{}, err
	}
	j := newJob(t, t.nextID, spec, grace)
	j.realDir = realDir
	j.restartOf = prev
	t.nextID++
	t.jobs = append(t.jobs, j)
	t.lives.Add(1) // released when the job is done
	t.mu.Unlock()
	t.startPorts() // before EventStarted, which the scanner must see

	h, err := supervisor.Start(supervisor.Config{
		Command: spec.Command,
		Dir:     spec.Dir,
		Env:     t.jobEnv(spec),
		TTY:     !spec.NoTTY,
		Rows:    spec.Size.Rows,
		Cols:    spec.Size.Cols,
		Grace:   supervisorGrace(grace),
		Session: t.session,
		Job:     int(j.id),
		Exe:     t.opts.SupervisorExe,
		Args:    t.opts.SupervisorArgs,
	})
	if err != nil {
		// Every error of supervisor.Start is a *StartError: nothing runs,
		// and the job says why.
		reason := err.Error()
		if se, ok := errors.AsType[*supervisor.StartError](err); ok {
			reason = se.Reason
		}
		j.fail(reason)
	} else {
		j.run(h)
	}
	t.publish(model.Event{Kind: model.EventStarted, Job: j.id})

	if t.opts.StartWait > 0 && !spec.NoWait {
		timer := time.NewTimer(t.opts.StartWait)
		select {
		case <-j.doneCh:
		case <-timer.C:
		case <-ctx.Done():
		}
		timer.Stop()
	}
	return j.report(tailSpec(), nil), nil
}

// DefaultGrace is the grace of a job started without one: Options.Grace,
// or model.DefaultGrace.
func (t *Table) DefaultGrace() time.Duration { return t.grace }

// supervisorGrace converts a grace (zero: none) to supervisor.Config's
// encoding, where zero means its default and negative means none.
func supervisorGrace(g time.Duration) time.Duration {
	if g == 0 {
		return -1
	}
	return g
}

// Close stops every job in parallel and returns when every tree is empty
// and every goroutine of the table has ended, or ctx ends. After Close,
// Start returns ErrClosed. When ctx ends first, the supervisors finish the
// stops on their own. The stops record ShutdownBy as who asked.
func (t *Table) Close(ctx context.Context) error {
	t.mu.Lock()
	t.closed = true
	jobs := slices.Clone(t.jobs)
	t.mu.Unlock()
	t.stopPorts()
	t.ingest.close()
	for _, j := range jobs {
		j.stop(j.grace, ShutdownBy)
	}
	done := make(chan struct{})
	go func() {
		t.lives.Wait()
		t.goroutines.Wait()
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("jobs still stopping: %w", ctx.Err())
	}
	for _, j := range jobs {
		j.closeControl()
	}
	t.subMu.Lock()
	subs := make([]*Subscription, 0, len(t.subs))
	for s := range t.subs {
		subs = append(subs, s)
	}
	t.subMu.Unlock()
	for _, s := range subs {
		s.Close()
	}
	return err
}

// finished is called once per job when it is done; it drops the oldest
// finished jobs past MaxFinished.
func (t *Table) finished() {
	t.mu.Lock()
	var done []*job
	for _, j := range t.jobs {
		if j.isDone() {
			done = append(done, j)
		}
	}
	var removed []model.JobID
	if extra := len(done) - t.opts.MaxFinished; extra > 0 {
		slices.SortFunc(done, func(a, b *job) int { return a.doneAt().Compare(b.doneAt()) })
		for _, j := range done[:extra] {
			t.jobs = slices.DeleteFunc(t.jobs, func(x *job) bool { return x == j })
			removed = append(removed, j.id)
			t.dropped++
			j.ring.free()
		}
	}
	t.mu.Unlock()
	for _, id := range removed {
		t.publish(model.Event{Kind: model.EventRemoved, Job: id})
	}
}
