package jobs

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
)

// Status returns the report of job id, with its newest lines, or with
// opts.HasSince the lines after opts.Since. With opts.Wait it first waits
// until the job ends (its whole tree is gone: processes the leader left
// behind count) or, with opts.Until, until a line matches (a line printed
// after the call, or with opts.HasSince any line after opts.Since).
// Report.Wait says which happened. Errors wrap ErrNotFound, or
// ErrBadRequest as an *model.InputError (lines, since, wait, until).
func (t *Table) Status(ctx context.Context, id model.JobID, opts model.StatusOptions) (model.Report, error) {
	j, err := t.find(id)
	if err != nil {
		return model.Report{}, err
	}
	if opts.Lines == 0 {
		opts.Lines = model.DefaultStatusLines
	}
	if err := model.CheckLines(opts.Lines); err != nil {
		return model.Report{}, err
	}
	if err := model.CheckWait(opts.Wait); err != nil {
		return model.Report{}, err
	}
	var until *regexp.Regexp
	if opts.Until != "" {
		if opts.Wait == 0 {
			return model.Report{}, &model.InputError{Err: ErrBadRequest, Field: model.FieldUntil,
				Msg: "until needs wait: give how many seconds to wait for a matching line"}
		}
		if until, err = model.CompilePattern(model.FieldUntil, opts.Until); err != nil {
			return model.Report{}, err
		}
	}
	if opts.HasSince {
		if err := model.CheckSince(opts.Since, j.ring.stats().last, j.id); err != nil {
			return model.Report{}, err
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
		w = j.wait(ctx, opts.Wait, until, cursor)
	}
	return j.report(opts, w), nil
}

// Kill stops job id and everything it started: SIGTERM and SIGCONT to
// every process, the grace period (the job's own, or opts.Grace), then
// SIGKILL until the tree is empty. It returns when the tree is empty and
// its output read, with the final report. Killing a finished job returns
// its report. opts.By is recorded as who asked. Errors wrap ErrNotFound or
// ErrBadRequest (grace), or are ctx's error when ctx ends first (the stop
// goes on; the report says where it stands).
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
	j.stop(grace, opts.By)
	timer := time.NewTimer(grace + killMargin)
	defer timer.Stop()
	final := model.StatusOptions{Lines: model.DefaultStatusLines}
	select {
	case <-j.doneCh:
	case <-ctx.Done():
		return j.report(final, nil), ctx.Err()
	case <-timer.C:
		return j.report(final, nil),
			fmt.Errorf("job %d: the tree was not empty %v after the stop began; it is still being stopped", j.id, grace+killMargin)
	}
	return j.report(final, nil), nil
}

// wait blocks until d passes, ctx ends, the job is done (its whole tree
// gone and its output read), or with until, a line after cursor (or an
// open line) matches.
func (j *job) wait(ctx context.Context, d time.Duration, until *regexp.Regexp, cursor uint64) *model.WaitResult {
	start := time.Now()
	timer := time.NewTimer(d)
	defer timer.Stop()
	res := func(r model.WaitReason, m *model.Line) *model.WaitResult {
		return &model.WaitResult{Reason: r, Waited: time.Since(start), Match: m}
	}
	for {
		ch := j.waitChan() // taken before looking, so no change is missed
		if until != nil {
			p := j.ring.read(model.ReadRequest{After: cursor})
			if m := firstMatch(until, p.Lines, p.Partial); m != nil {
				return res(model.WaitMatched, m)
			}
			cursor = p.Next
		}
		// The job ends when its whole tree is gone (and its output read),
		// not when the leader exits: processes it left may still print.
		select {
		case <-j.doneCh:
			if until != nil {
				// Done: every line is in the ring now; look at the last.
				p := j.ring.read(model.ReadRequest{After: cursor, NoPartial: true})
				if m := firstMatch(until, p.Lines, nil); m != nil {
					return res(model.WaitMatched, m)
				}
			}
			return res(model.WaitEnded, nil)
		default:
		}
		select {
		case <-ch:
		case <-j.doneCh:
		case <-timer.C:
			return res(model.WaitTimeout, nil)
		case <-ctx.Done():
			return res(model.WaitTimeout, nil)
		}
	}
}

// firstMatch returns the first of lines, then of partial, whose plain text
// matches re, or nil.
func firstMatch(re *regexp.Regexp, lines, partial []model.Line) *model.Line {
	for _, set := range [][]model.Line{lines, partial} {
		for i := range set {
			if re.MatchString(sanitize.Plain(set[i].Text)) {
				return &set[i]
			}
		}
	}
	return nil
}
