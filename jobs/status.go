package jobs

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// Status returns the report of job id: its snapshot and the lines opts
// selects (the newest, the oldest, after a cursor, matching a grep
// pattern, within a byte budget; see model.StatusOptions). With opts.Wait
// it first waits until the job ends (its whole tree is gone: processes the
// leader left behind count) or, with opts.Until, until a line matches (the
// newest matching line after opts.After, opts.Since or the start of the
// call). Report.Wait says which happened. Errors wrap ErrNotFound, or
// ErrBadRequest as an *model.InputError (lines, head, since, grep,
// context, wait, until).
func (t *Table) Status(ctx context.Context, id model.JobID, opts model.StatusOptions) (model.Report, error) {
	j, err := t.find(id)
	if err != nil {
		return model.Report{}, err
	}
	spec, until, err := checkRead(opts, j)
	if err != nil {
		return model.Report{}, err
	}
	var w *model.WaitResult
	if opts.Wait > 0 {
		// Until matches lines after its own cursor (After), or the lines
		// after Since, or else lines printed after the call.
		cursor := j.ring.stats().last
		switch {
		case opts.HasAfter:
			cursor = opts.After
		case opts.HasSince:
			cursor = opts.Since
		}
		w = j.wait(ctx, opts.Wait, until, cursor)
	}
	return j.report(spec, w), nil
}

// checkRead checks a status request (model.CheckStatus, and since against
// job j) and returns its read ready for selectLines, and its until
// pattern compiled.
func checkRead(opts model.StatusOptions, j *job) (readSpec, *regexp.Regexp, error) {
	o := opts
	pats, err := model.CheckStatus(o)
	if err != nil {
		return readSpec{}, nil, err
	}
	if o.Head == 0 && o.Lines == 0 {
		o.Lines = model.DefaultStatusLines
	}
	spec := readSpec{opts: o, grep: pats.Grep}
	if o.HasSince {
		if err := model.CheckSince(o.Since, j.ring.stats().last, j.id); err != nil {
			return readSpec{}, nil, err
		}
	} else {
		spec.opts.Since = 0
	}
	spec.opts.MaxBytes, spec.opts.LineBytes = max(o.MaxBytes, 0), max(o.LineBytes, 0)
	return spec, pats.Until, nil
}

// Kill stops job id and everything it started: SIGTERM and SIGCONT to
// every process, the grace period (the job's own, or opts.Grace), then
// SIGKILL until the tree is empty. It returns when the tree is empty and
// its output read, with the final report. Killing a finished job returns
// its report; opts.Read shapes its lines. opts.By is recorded as who
// asked, unless a stop was asked for before: the first asker stays, and
// the report says this stop joined it (Report.StopJoined). Errors wrap ErrNotFound or ErrBadRequest (grace, or the read of
// opts.Read), or are ctx's error when ctx ends first (the stop goes on;
// the report says where it stands).
func (t *Table) Kill(ctx context.Context, id model.JobID, opts model.KillOptions) (model.Report, error) {
	j, err := t.find(id)
	if err != nil {
		return model.Report{}, err
	}
	grace := j.grace
	if opts.Grace != nil {
		if err := model.CheckGrace(*opts.Grace, model.ErrBadRequest); err != nil {
			return model.Report{}, err
		}
		grace = *opts.Grace
	}
	read := opts.Read
	read.Wait, read.Until = 0, "" // a stop's read does not wait
	final, _, err := checkRead(read, j)
	if err != nil {
		return model.Report{}, err
	}
	began := j.stop(grace, opts.By)
	report := func() model.Report {
		r := j.report(final, nil)
		r.StopJoined = !began && r.Job.Stop != nil
		return r
	}
	timer := time.NewTimer(grace + killMargin)
	defer timer.Stop()
	select {
	case <-j.doneCh:
	case <-ctx.Done():
		return report(), ctx.Err()
	case <-timer.C:
		return report(),
			fmt.Errorf("job %d: the tree was not empty %v after the stop began; it is still being stopped", j.id, grace+killMargin)
	}
	return report(), nil
}
