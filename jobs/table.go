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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/supervisor"
)

// Defaults of Options.
const (
	DefaultMaxRunning  = 8
	DefaultMaxFinished = 32
	DefaultStartWait   = 300 * time.Millisecond
	DefaultGrace       = 5 * time.Second
	// killMargin is how long Kill waits beyond the grace before it gives up
	// waiting for an empty tree (the stop itself goes on).
	killMargin = 10 * time.Second
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
	// command that dies at once is reported as exited with its output. Zero
	// means 300 ms; negative means do not wait.
	StartWait time.Duration
	// Grace is the default time between SIGTERM and SIGKILL; zero means
	// 5 s, negative means none (SIGKILL at once).
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
	opts    Options
	session string // marks this process's jobs (environment, cgroup names)

	mu      sync.Mutex
	jobs    []*job // in ID order; finished ones until dropped
	nextID  model.JobID
	dropped int // finished jobs dropped past MaxFinished
	closed  bool
	wg      sync.WaitGroup // the goroutines of every job

	subMu sync.Mutex
	subs  map[*Subscription]struct{}
}

// New returns an empty Table. It fails only when the default directory
// cannot be found.
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
	if opts.Grace == 0 {
		opts.Grace = DefaultGrace
	}
	var id [6]byte
	_, _ = rand.Read(id[:])
	return &Table{
		opts:    opts,
		session: fmt.Sprintf("%d-%s", os.Getpid(), hex.EncodeToString(id[:])),
		subs:    map[*Subscription]struct{}{},
	}, nil
}

// Session is the marker of this table's jobs: every process of every job
// carries JOBDECK_SESSION=<Session> in its environment.
func (t *Table) Session() string { return t.session }

// Start starts spec as a new job and returns its report after a short wait
// (Options.StartWait), so that a command that dies at once is reported as
// exited with its output. Errors (wrapping ErrBadSpec, ErrLimit,
// ErrDuplicate or ErrClosed) leave nothing started. A job whose shell could
// not be started at all is kept in StateFailed with the reason, and is not
// an error.
func (t *Table) Start(ctx context.Context, spec model.Spec) (model.Report, error) {
	spec, err := t.checkSpec(spec)
	if err != nil {
		return model.Report{}, err
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return model.Report{}, fmt.Errorf("%w: jobdeck is shutting down", ErrClosed)
	}
	if err := t.admit(spec); err != nil {
		t.mu.Unlock()
		return model.Report{}, err
	}
	j := newJob(t, t.nextID, spec)
	t.nextID++
	t.jobs = append(t.jobs, j)
	t.wg.Add(1) // released when the job is done
	t.mu.Unlock()

	h, err := supervisor.Start(supervisor.Config{
		Command: spec.Command,
		Dir:     spec.Dir,
		Env:     t.jobEnv(spec),
		TTY:     !spec.NoTTY,
		Grace:   spec.Grace,
		Session: t.session,
		Job:     int(j.id),
		Exe:     t.opts.SupervisorExe,
		Args:    t.opts.SupervisorArgs,
	})
	var se *supervisor.StartError
	switch {
	case errors.As(err, &se):
		j.fail(se.Reason)
	case err != nil:
		// Nothing runs: take the job out again, as if never started.
		t.mu.Lock()
		t.jobs = slices.DeleteFunc(t.jobs, func(x *job) bool { return x == j })
		t.mu.Unlock()
		t.wg.Done()
		return model.Report{}, fmt.Errorf("start job: %w", err)
	default:
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
	return j.report(model.StatusOptions{Lines: model.DefaultStatusLines}, nil, time.Now()), nil
}

// checkSpec validates spec and fills in defaults.
func (t *Table) checkSpec(spec model.Spec) (model.Spec, error) {
	switch {
	case strings.TrimSpace(spec.Command) == "":
		return spec, fmt.Errorf("%w: the command is empty: give the shell command to run, for example \"npm run dev\"", ErrBadSpec)
	case len(spec.Command) > model.MaxCommandBytes:
		return spec, fmt.Errorf("%w: the command is %d bytes, over the 1 MiB limit: write it to a script file and run that instead", ErrBadSpec, len(spec.Command))
	case strings.IndexByte(spec.Command, 0) >= 0:
		return spec, fmt.Errorf("%w: the command contains a NUL byte, which no shell command can hold: remove it", ErrBadSpec)
	}
	spec.Name = strings.TrimSpace(spec.Name)
	if spec.Name != "" {
		if _, err := strconv.Atoi(spec.Name); err == nil {
			return spec, fmt.Errorf("%w: name %q is a number and would read as a job ID: pick a name with a letter in it", ErrBadSpec, spec.Name)
		}
		if model.OneLine(spec.Name, 0) != spec.Name || len(spec.Name) > 64 {
			return spec, fmt.Errorf("%w: a name is one line of at most 64 bytes without control characters, like \"web\" or \"tests\"", ErrBadSpec)
		}
	}
	dir := spec.Dir
	if dir == "" {
		dir = t.opts.Dir
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(t.opts.Dir, dir)
	}
	fi, err := os.Stat(dir)
	switch {
	case err != nil && errors.Is(err, os.ErrNotExist):
		return spec, fmt.Errorf("%w: cwd %q does not exist: give an existing directory, absolute or relative to %s", ErrBadSpec, spec.Dir, t.opts.Dir)
	case err != nil:
		return spec, fmt.Errorf("%w: cwd %q cannot be used (%v): give another directory", ErrBadSpec, spec.Dir, err)
	case !fi.IsDir():
		return spec, fmt.Errorf("%w: cwd %q is a file, not a directory: give the directory to run in", ErrBadSpec, spec.Dir)
	}
	spec.Dir = filepath.Clean(dir)
	if spec.Grace == 0 {
		spec.Grace = t.opts.Grace // negative stays: no grace
	}
	return spec, nil
}

// admit refuses a start past the running limit or of a duplicate. t.mu held.
func (t *Table) admit(spec model.Spec) error {
	var live []string
	for _, j := range t.jobs {
		s := j.snapshot()
		if !s.Live() {
			continue
		}
		if spec.Name != "" && strings.EqualFold(s.Name, spec.Name) {
			return fmt.Errorf("%w: the name %q belongs to running job %s: pick another name, or stop that job first", ErrDuplicate, spec.Name, s.Label())
		}
		if s.Command == spec.Command && s.Dir == spec.Dir {
			return fmt.Errorf("%w: the same command runs in %s as job %s for %s: read that job, or stop it first",
				ErrDuplicate, s.Dir, s.Label(), model.FormatElapsed(time.Since(s.Started)))
		}
		live = append(live, fmt.Sprintf("job %s %s", s.Label(), model.OneLine(s.Command, 40)))
	}
	if len(live) >= t.opts.MaxRunning {
		return fmt.Errorf("%w: %d jobs are running, the limit: %s; stop one before starting another",
			ErrLimit, len(live), strings.Join(live, "; "))
	}
	return nil
}

// jobEnv is the environment of a job (DESIGN §3): jobdeck's own, with pagers
// off, TERM for the job's transport, unbuffered Python and no git prompts.
func (t *Table) jobEnv(spec model.Spec) []string {
	env := make([]string, 0, len(t.opts.Env)+6)
	for _, kv := range t.opts.Env {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PAGER", "GIT_PAGER", "TERM", "PYTHONUNBUFFERED", "GIT_TERMINAL_PROMPT", "COLUMNS", "LINES":
			continue
		}
		if strings.HasPrefix(k, "JOBDECK_") {
			continue
		}
		env = append(env, kv)
	}
	term := "xterm-256color"
	if spec.NoTTY {
		term = "dumb"
	}
	return append(env, "PAGER=cat", "GIT_PAGER=cat", "TERM="+term, "PYTHONUNBUFFERED=1", "GIT_TERMINAL_PROMPT=0")
}

// lookup resolves a selector to a job. t.mu must not be held.
func (t *Table) lookup(sel string) (*job, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sel = strings.TrimSpace(sel)
	if sel == "" {
		return nil, fmt.Errorf("%w: give a job ID or name", ErrNotFound)
	}
	if n, err := strconv.Atoi(sel); err == nil {
		id := model.JobID(n)
		for _, j := range t.jobs {
			if j.id == id {
				return j, nil
			}
		}
		if id >= 0 && id < t.nextID {
			return nil, fmt.Errorf("%w: job %d finished and was dropped (only the %d most recent finished jobs are kept)", ErrNotFound, id, t.opts.MaxFinished)
		}
		return nil, fmt.Errorf("%w: there is no job %d%s", ErrNotFound, id, t.idRange())
	}
	var hits []*job
	for _, j := range t.jobs {
		if j.spec.Name != "" && strings.EqualFold(j.spec.Name, sel) {
			hits = append(hits, j)
		}
	}
	switch len(hits) {
	case 0:
		return nil, fmt.Errorf("%w: no job is named %q; give a job ID or one of the names", ErrNotFound, sel)
	case 1:
		return hits[0], nil
	}
	// A name is held by at most one live job at a time (Start refuses a
	// second), so after "stop web, start web" the name means the live one.
	var live []*job
	for _, j := range hits {
		if j.snapshot().Live() {
			live = append(live, j)
		}
	}
	if len(live) == 1 {
		return live[0], nil
	}
	ids := make([]string, len(hits))
	for i, j := range hits {
		ids[i] = j.id.String()
	}
	return nil, fmt.Errorf("%w: %q names jobs %s; give the ID instead", ErrAmbiguous, sel, strings.Join(ids, ", "))
}

// idRange says which IDs exist, for error messages. t.mu held.
func (t *Table) idRange() string {
	if len(t.jobs) == 0 {
		return "; no jobs were started yet"
	}
	return fmt.Sprintf("; the jobs are %d to %d", t.jobs[0].id, t.jobs[len(t.jobs)-1].id)
}

// Resolve turns a selector (an ID, or a case-insensitive name) into an ID.
// A name that several jobs had means the one of them that is live; with
// none live it is ambiguous. Errors wrap ErrNotFound or ErrAmbiguous.
func (t *Table) Resolve(sel string) (model.JobID, error) {
	j, err := t.lookup(sel)
	if err != nil {
		return 0, err
	}
	return j.id, nil
}

// List returns a snapshot of every job in the table, in ID order.
func (t *Table) List() []model.Snapshot {
	t.mu.Lock()
	jobs := slices.Clone(t.jobs)
	t.mu.Unlock()
	out := make([]model.Snapshot, len(jobs))
	for i, j := range jobs {
		out[i] = j.snapshot()
	}
	return out
}

// Dropped is how many finished jobs were dropped because more than
// Options.MaxFinished were kept.
func (t *Table) Dropped() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.dropped
}

// Snapshot returns one job's snapshot; false when the ID is unknown.
func (t *Table) Snapshot(id model.JobID) (model.Snapshot, bool) {
	if j := t.byID(id); j != nil {
		return j.snapshot(), true
	}
	return model.Snapshot{}, false
}

func (t *Table) byID(id model.JobID) *job {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, j := range t.jobs {
		if j.id == id {
			return j
		}
	}
	return nil
}

// Read returns lines of one job's ring (see model.ReadRequest). It never
// waits. Errors wrap ErrNotFound.
func (t *Table) Read(id model.JobID, req model.ReadRequest) (model.Page, error) {
	j := t.byID(id)
	if j == nil {
		return model.Page{}, fmt.Errorf("%w: there is no job %d", ErrNotFound, id)
	}
	return j.ring.read(req), nil
}

// Status returns the report of the job that sel names (an ID or a name),
// with its newest lines, or with opts.HasSince the lines after opts.Since.
// With opts.Wait it first waits until the job ends (its whole tree is
// gone: processes the leader left behind count) or, with opts.Until, until
// a line matches (a line printed after the call, or with opts.HasSince any
// line after opts.Since). Report.Wait says which happened. Errors wrap ErrNotFound, ErrAmbiguous or ErrBadRequest.
func (t *Table) Status(ctx context.Context, sel string, opts model.StatusOptions) (model.Report, error) {
	j, err := t.lookup(sel)
	if err != nil {
		return model.Report{}, err
	}
	if opts.Lines == 0 {
		opts.Lines = model.DefaultStatusLines
	}
	switch {
	case opts.Lines < 0 || opts.Lines > model.MaxStatusLines:
		return model.Report{}, fmt.Errorf("%w: lines is %d; ask for 1 to %d lines", ErrBadRequest, opts.Lines, model.MaxStatusLines)
	case opts.Wait < 0 || opts.Wait > model.MaxWait:
		return model.Report{}, fmt.Errorf("%w: wait is %v; wait 0 to %d seconds", ErrBadRequest, opts.Wait, int(model.MaxWait/time.Second))
	case opts.Until != nil && opts.Wait == 0:
		return model.Report{}, fmt.Errorf("%w: until needs wait: give how many seconds to wait for a matching line", ErrBadRequest)
	}
	if opts.HasSince {
		if last := j.ring.stats().last; opts.Since > last {
			return model.Report{}, fmt.Errorf("%w: since is %d but job %d's last line is %d: pass the next cursor of an earlier result (or 0 for everything)", ErrBadRequest, opts.Since, j.id, last)
		}
	}
	var w *model.WaitResult
	if opts.Wait > 0 {
		// Until matches lines printed after the call, or with since, the
		// lines after since: a "ready" that came between two calls of an
		// agent reading with since is not missed.
		cursor := j.ring.stats().last
		if opts.HasSince {
			cursor = opts.Since
		}
		w = j.wait(ctx, opts.Wait, opts.Until, cursor)
	}
	return j.report(opts, w, time.Now()), nil
}

// Kill stops the job that sel names and everything it started: SIGTERM and
// SIGCONT to every process, the grace period, then SIGKILL until the tree is
// empty. It returns when the tree is empty and its output read, with the
// final report. Killing a finished job returns its report. Errors wrap
// ErrNotFound or ErrAmbiguous, or are ctx's error when ctx ends first (the
// stop goes on).
func (t *Table) Kill(ctx context.Context, sel string, opts model.KillOptions) (model.Report, error) {
	j, err := t.lookup(sel)
	if err != nil {
		return model.Report{}, err
	}
	if opts.HasGrace && (opts.Grace < 0 || opts.Grace > model.MaxWait) {
		return model.Report{}, fmt.Errorf("%w: grace is %v; give 0 to %d seconds", ErrBadRequest, opts.Grace, int(model.MaxWait/time.Second))
	}
	grace := max(j.spec.Grace, 0)
	if opts.HasGrace {
		grace = opts.Grace
	}
	j.stop(grace)
	timer := time.NewTimer(grace + killMargin)
	defer timer.Stop()
	select {
	case <-j.doneCh:
	case <-ctx.Done():
		return j.report(model.StatusOptions{Lines: model.DefaultStatusLines}, nil, time.Now()), ctx.Err()
	case <-timer.C:
		return j.report(model.StatusOptions{Lines: model.DefaultStatusLines}, nil, time.Now()),
			fmt.Errorf("job %d: the tree was not empty %v after the stop began; it is still being stopped", j.id, grace+killMargin)
	}
	return j.report(model.StatusOptions{Lines: model.DefaultStatusLines}, nil, time.Now()), nil
}

// Close stops every job in parallel and returns when every tree is empty or
// ctx ends. After Close, Start returns ErrClosed. When ctx ends first, the
// supervisors finish the stops on their own.
func (t *Table) Close(ctx context.Context) error {
	t.mu.Lock()
	t.closed = true
	jobs := slices.Clone(t.jobs)
	t.mu.Unlock()
	for _, j := range jobs {
		j.stop(max(j.spec.Grace, 0))
	}
	done := make(chan struct{})
	go func() { t.wg.Wait(); close(done) }()
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
