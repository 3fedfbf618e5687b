package jobs

import (
	"context"
	"regexp"
	"slices"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// wait blocks until d passes, ctx ends (model.WaitCancelled), the job is done (its whole tree
// gone and its output read), or with until, a line after cursor (or an
// open line) matches; where several match, the newest is the match.
func (j *job) wait(ctx context.Context, d time.Duration, until *regexp.Regexp, cursor uint64) *model.WaitResult {
	start := time.Now()
	timer := time.NewTimer(d)
	defer timer.Stop()
	res := func(r model.WaitReason, m *model.Line) *model.WaitResult {
		return &model.WaitResult{Reason: r, Waited: time.Since(start), Match: m, Job: j.id}
	}
	var m *matcher
	if until != nil {
		m = &matcher{re: until}
	}
	for {
		ch := j.waitChan() // taken before looking, so no change is missed
		if m != nil {
			l, last := j.ring.newestMatch(m, cursor, LineCap)
			if l != nil {
				return res(model.WaitMatched, l)
			}
			cursor = last
		}
		// The job ends when its whole tree is gone (and its output read),
		// not when the leader exits: processes it left may still print.
		select {
		case <-j.doneCh:
			if m != nil {
				// Done: every line is in the ring now; look at the last.
				if l, _ := j.ring.newestMatch(m, cursor, LineCap); l != nil {
					return res(model.WaitMatched, l)
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
			return res(model.WaitCancelled, nil)
		}
	}
}

// WaitAny waits up to opts.Wait for any job to end (one that was live
// when the wait began or started during it: its whole tree gone) or, with
// opts.Until, for a line of any job to match (the newest matching line
// after that job's cursor in opts.After, or anywhere in its ring; finished
// jobs' lines count). The result's Job names the job; the list is every
// job's snapshot when the wait ended. With no job live and no line
// matching it returns at once with model.WaitIdle. When ctx ends first it
// returns model.WaitCancelled. Errors wrap ErrBadRequest as an
// *model.InputError (wait, until).
func (t *Table) WaitAny(ctx context.Context, opts model.AnyOptions) (model.WaitResult, []model.Snapshot, error) {
	if err := model.CheckWait(opts.Wait); err != nil {
		return model.WaitResult{}, nil, err
	}
	var m *matcher
	if opts.Until != "" {
		re, err := model.CompilePattern(model.FieldUntil, opts.Until)
		if err != nil {
			return model.WaitResult{}, nil, err
		}
		m = &matcher{re: re}
	}
	sub := t.Subscribe()
	defer sub.Close()
	start := time.Now()
	timer := time.NewTimer(opts.Wait)
	defer timer.Stop()
	cursors := map[model.JobID]uint64{}
	for id, c := range opts.After {
		cursors[id] = c
	}
	live := map[model.JobID]bool{} // jobs seen live during the wait
	done := func(r model.WaitReason, id model.JobID, l *model.Line) (model.WaitResult, []model.Snapshot, error) {
		return model.WaitResult{Reason: r, Waited: time.Since(start), Match: l, Job: id}, t.List(), nil
	}
	for first := true; ; first = false {
		sub.Events() // what follows looks at everything; later events wake the loop
		t.mu.Lock()
		jobs := slices.Clone(t.jobs)
		t.mu.Unlock()
		var best *model.Line
		var bestJob model.JobID
		nLive := 0
		for _, j := range jobs {
			if m != nil {
				l, last := j.ring.newestMatch(m, cursors[j.id], LineCap)
				if l != nil && (best == nil || l.Time.After(best.Time)) {
					best, bestJob = l, j.id
				}
				cursors[j.id] = last
			}
			switch {
			case !j.isDone():
				live[j.id] = true
				nLive++
			case live[j.id] && m == nil:
				return done(model.WaitEnded, j.id, nil)
			}
		}
		switch {
		case best != nil:
			return done(model.WaitMatched, bestJob, best)
		case nLive == 0 && first:
			return done(model.WaitIdle, -1, nil)
		case nLive == 0 && m != nil:
			// Every job that could print is over: nothing can match now.
			return done(model.WaitIdle, -1, nil)
		}
		select {
		case <-sub.C():
		case <-timer.C:
			return done(model.WaitTimeout, -1, nil)
		case <-ctx.Done():
			return done(model.WaitCancelled, -1, nil)
		}
	}
}
