package serve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// Errors of the fake core, worded like the real core's.
var (
	errFakeNotFound  = errors.New("no such job")
	errFakeAmbiguous = errors.New("name matches more than one job")
	errFakeLimit     = errors.New("too many running jobs")
)

// t0 is the fake core's clock start.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fakeCore is a deterministic Core: jobs never run, the test prints their
// lines and ends them. A waiting Status plays the job's script (lines it
// "will" print) in fake time instead of sleeping, unless blockWait is set.
type fakeCore struct {
	mu   sync.Mutex
	jobs []*fakeJob
	// lastSpec is the spec of the last Start.
	lastSpec model.Spec
	// blockWait makes a waiting Status sleep (really) until ctx ends or
	// the wait runs out, for progress tests.
	blockWait bool
	// blocked counts the waiting Statuses that are asleep under
	// blockWait now; tests poll it to know a wait is really running.
	blocked int
	// panicOn makes Start panic for this command.
	panicOn string
	// dropped is what Dropped reports.
	dropped int
	// failStart makes the next starts fail to run, with this reason.
	failStart string
	// statused and killed are the IDs Status and Kill were called with.
	statused, killed []model.JobID
}

// blockedWaits is how many waiting Statuses are asleep under blockWait.
func (f *fakeCore) blockedWaits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.blocked
}

// checkStatus applies the real core's checks of a status request.
func checkStatus(opts model.StatusOptions, s model.Snapshot) error {
	if _, err := model.CheckStatus(opts); err != nil {
		return err
	}
	if opts.HasSince {
		return model.CheckSince(opts.Since, s.Lines, s.ID)
	}
	return nil
}

type fakeJob struct {
	snap  model.Snapshot
	lines []model.Line
	// script is what the job prints next, one entry per fake second, and
	// whether it exits 0 after the script.
	script    []fakeOut
	endScript bool
}

type fakeOut struct {
	text   string
	stream model.Stream
}

func (f *fakeCore) now() time.Time { return t0.Add(2 * time.Second) }

func (f *fakeCore) Start(ctx context.Context, spec model.Spec) (model.Report, error) {
	if spec.Command == f.panicOn && f.panicOn != "" {
		panic("fake core panics on purpose")
	}
	// The real core's checks, which live in model, once; names are taken
	// as given (trimmed), so that tests can play a careless core that
	// hands serve a hostile one.
	if err := model.CheckCommand(spec.Command); err != nil {
		return model.Report{}, err
	}
	wd, _ := os.Getwd()
	if _, err := model.CheckDir(spec.Dir, wd); err != nil {
		return model.Report{}, err
	}
	spec.Name = strings.TrimSpace(spec.Name)
	f.mu.Lock()
	defer f.mu.Unlock()
	var live []string
	for _, j := range f.jobs {
		if j.snap.Live() {
			live = append(live, j.snap.ID.String())
		}
	}
	if len(live) >= 8 {
		return model.Report{}, fmt.Errorf("%w: 8 jobs are running (%s): stop one with job_kill first", errFakeLimit, strings.Join(live, ", "))
	}
	f.lastSpec = spec
	id := model.JobID(len(f.jobs))
	j := &fakeJob{snap: model.Snapshot{ID: id, Name: spec.Name, Command: spec.Command, Dir: spec.Dir, TTY: !spec.NoTTY,
		Owner: spec.Owner, State: model.StateRunning, PID: 1000 + int(id), Started: t0}}
	if f.failStart != "" {
		j.snap.State, j.snap.Err, j.snap.Started, j.snap.Done = model.StateFailed, f.failStart, time.Time{}, true
	}
	f.jobs = append(f.jobs, j)
	return f.reportLocked(j, model.StatusOptions{}, nil), nil
}

// resolveLocked finds the job sel names.
func (f *fakeCore) resolveLocked(sel string) (*fakeJob, error) {
	if n, err := strconv.Atoi(sel); err == nil {
		if n >= 0 && n < len(f.jobs) {
			return f.jobs[n], nil
		}
		return nil, fmt.Errorf("%w: no job has ID %d; job_status without id lists the jobs", errFakeNotFound, n)
	}
	var found []*fakeJob
	for _, j := range f.jobs {
		if strings.EqualFold(j.snap.Name, sel) {
			found = append(found, j)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("%w: no job is named %q; job_status without id lists the jobs", errFakeNotFound, sel)
	case 1:
		return found[0], nil
	}
	return nil, fmt.Errorf("%w: %q names jobs %d and %d; use the ID instead", errFakeAmbiguous, sel, found[0].snap.ID, found[1].snap.ID)
}

// byIDLocked finds job id.
func (f *fakeCore) byIDLocked(id model.JobID) (*fakeJob, error) {
	if id < 0 || int(id) >= len(f.jobs) {
		return nil, fmt.Errorf("%w: no job has ID %d; job_status without id lists the jobs", errFakeNotFound, id)
	}
	return f.jobs[id], nil
}

func (f *fakeCore) Status(ctx context.Context, id model.JobID, opts model.StatusOptions) (model.Report, error) {
	f.mu.Lock()
	f.statused = append(f.statused, id)
	j, err := f.byIDLocked(id)
	if err != nil {
		f.mu.Unlock()
		return model.Report{}, err
	}
	err = checkStatus(opts, j.snap)
	if err != nil {
		f.mu.Unlock()
		return model.Report{}, err
	}
	var wait *model.WaitResult
	if opts.Wait > 0 {
		if f.blockWait {
			f.blocked++
			f.mu.Unlock()
			var err error
			select {
			case <-ctx.Done():
				err = ctx.Err()
			case <-time.After(opts.Wait):
			}
			f.mu.Lock()
			f.blocked--
			if err != nil {
				f.mu.Unlock()
				return model.Report{}, err
			}
		}
		wait = f.playLocked(j, opts)
	}
	defer f.mu.Unlock()
	return f.reportLocked(j, opts, wait), nil
}

// playLocked plays j's script for a wait, one line per fake second. An
// until wait first looks at the lines after its cursor (the newest match
// wins), as the real core does.
func (f *fakeCore) playLocked(j *fakeJob, opts model.StatusOptions) *model.WaitResult {
	var re *regexp.Regexp
	if opts.Until != "" {
		re = regexp.MustCompile(opts.Until)
		cursor := j.snap.Lines
		switch {
		case opts.HasAfter:
			cursor = opts.After
		case opts.HasSince:
			cursor = opts.Since
		}
		for i := len(j.lines) - 1; i >= 0; i-- {
			if l := j.lines[i]; l.Seq > cursor && re.Match(l.Text) {
				return &model.WaitResult{Reason: model.WaitMatched, Match: &l, Job: j.snap.ID}
			}
		}
	}
	if finished(j.snap) {
		return &model.WaitResult{Reason: model.WaitEnded, Job: j.snap.ID}
	}
	waited := time.Duration(0)
	for len(j.script) > 0 && waited+time.Second <= opts.Wait {
		out := j.script[0]
		j.script = j.script[1:]
		waited += time.Second
		l := f.printLocked(j, out.stream, out.text)
		if re != nil && re.MatchString(out.text) {
			return &model.WaitResult{Reason: model.WaitMatched, Waited: waited, Match: &l, Job: j.snap.ID}
		}
	}
	if len(j.script) == 0 && j.endScript {
		f.endLocked(j, model.Exit{})
		return &model.WaitResult{Reason: model.WaitEnded, Waited: waited, Job: j.snap.ID}
	}
	return &model.WaitResult{Reason: model.WaitTimeout, Waited: opts.Wait, Job: j.snap.ID}
}

func (f *fakeCore) Dropped() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dropped
}

func (f *fakeCore) Resolve(sel string) (model.JobID, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	j, err := f.resolveLocked(sel)
	if err != nil {
		return 0, err
	}
	return j.snap.ID, nil
}

func (f *fakeCore) List() []model.Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]model.Snapshot, len(f.jobs))
	for i, j := range f.jobs {
		out[i] = j.snap
	}
	return out
}

func (f *fakeCore) Kill(ctx context.Context, id model.JobID, opts model.KillOptions) (model.Report, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.killed = append(f.killed, id)
	j, err := f.byIDLocked(id)
	if err != nil {
		return model.Report{}, err
	}
	if !finished(j.snap) {
		grace := model.DefaultGrace
		if opts.Grace != nil {
			if err := model.CheckGrace(*opts.Grace, model.ErrBadRequest); err != nil {
				return model.Report{}, err
			}
			grace = *opts.Grace
		}
		j.snap.Stop = &model.Stop{At: t0, Grace: grace, TermSent: 1, Done: t0.Add(time.Second), By: opts.By}
		f.endLocked(j, model.Exit{Signal: 15})
	}
	return f.reportLocked(j, opts.Read, nil), nil
}

// print appends a line to job id.
func (f *fakeCore) print(id int, stream model.Stream, text string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.printLocked(f.jobs[id], stream, text)
}

func (f *fakeCore) printLocked(j *fakeJob, stream model.Stream, text string) model.Line {
	j.snap.Lines++
	l := model.Line{Seq: j.snap.Lines, Stream: stream, Time: t0, Text: []byte(text)}
	j.lines = append(j.lines, l)
	if j.snap.FirstSeq == 0 {
		j.snap.FirstSeq = 1
	}
	return l
}

// end makes job id exit with e.
func (f *fakeCore) end(id int, e model.Exit) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.endLocked(f.jobs[id], e)
}

func (f *fakeCore) endLocked(j *fakeJob, e model.Exit) {
	j.snap.State = model.StateExited
	j.snap.Exit = &e
	j.snap.Ended = t0.Add(time.Second)
	j.snap.Done = true
}

// setScript sets what job id prints while a status waits.
func (f *fakeCore) setScript(id int, end bool, lines ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	j := f.jobs[id]
	for _, l := range lines {
		j.script = append(j.script, fakeOut{text: l})
	}
	j.endScript = end
}
