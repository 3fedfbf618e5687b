package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// rerunState is where a job's restart stands (job.rerun, guarded by t.mu):
// at most one restart per run, so two restarts asked at once cannot start
// the command twice.
type rerunState struct {
	busy bool         // a restart of this run is under way
	next *model.JobID // the run it was restarted as
}

// Restart stops job id's tree as Kill does (when it is live: SIGTERM, the
// grace, SIGKILL until the tree is empty), then starts the same spec again
// as a new job: the same command, name, directory, environment, transport
// and grace. The old run stays in the table, readable, until it is removed
// or dropped; the new run's snapshot names it (Snapshot.RestartOf), and the
// name now means the new run. A finished job is started again at once.
// opts.By is recorded as who asked for the stop and as the new run's
// owner. The report is the new run's.
//
// Errors wrap ErrNotFound, ErrBadRequest (grace), ErrRunning (the job is
// being stopped, or is being restarted already or was restarted: the
// message names its new run), ErrClosed, or what the new start met
// (ErrLimit, ErrDuplicate: another job took the name or the command
// meanwhile); ctx's error when ctx ends during the stop (nothing new is
// started; the stop goes on). When the tree does not empty within the
// grace and a margin, nothing new is started either.
func (t *Table) Restart(ctx context.Context, id model.JobID, opts model.RestartOptions) (model.Report, error) {
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
	if err := t.beginRerun(j); err != nil {
		return model.Report{}, err
	}
	var next *model.JobID
	defer func() { t.endRerun(j, next) }()

	if j.snapshot().Live() {
		j.stop(grace, opts.By)
		timer := time.NewTimer(grace + killMargin)
		defer timer.Stop()
		select {
		case <-j.doneCh:
		case <-ctx.Done():
			return model.Report{}, fmt.Errorf("restart of job %d: %w (the stop goes on; nothing new was started)", j.id, ctx.Err())
		case <-timer.C:
			return model.Report{}, fmt.Errorf("%w: job %d: the tree was not empty %v after the stop began, so it was not started again; it is still being stopped",
				ErrRunning, j.id, grace+killMargin)
		}
	}
	spec := j.spec
	spec.NoWait = opts.NoWait
	spec.Size = j.termSize() // the size it had last: its pane's
	if opts.By != "" {
		spec.Owner = opts.By
	}
	if spec.Grace == nil {
		g := j.grace // the grace the old run had, whatever the default is now
		spec.Grace = &g
	}
	prev := j.id
	rep, err := t.start(ctx, spec, &prev)
	if err != nil {
		return rep, fmt.Errorf("restart of job %d: stopped, but not started again: %w", j.id, err)
	}
	next = &rep.Job.ID
	return rep, nil
}

// beginRerun marks j's restart as under way, or says why it cannot be.
func (t *Table) beginRerun(j *job) error {
	s := j.snapshot()
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.closed:
		return fmt.Errorf("%w: jobdeck is shutting down", ErrClosed)
	case j.rerun.next != nil:
		return fmt.Errorf("%w: job %s was restarted already, as job %d: restart that one", ErrRunning, s.Label(), *j.rerun.next)
	case j.rerun.busy:
		return fmt.Errorf("%w: job %s is being restarted already; its new run comes when the stop ends", ErrRunning, s.Label())
	case s.Stop != nil && s.Live():
		return fmt.Errorf("%w: job %s is being stopped%s: restart it once it ended", ErrRunning, s.Label(), model.AskedBy(s.Stop.By))
	}
	j.rerun.busy = true
	return nil
}

// endRerun records how j's restart ended: as job next, or (nil) not at
// all, so that it may be tried again.
func (t *Table) endRerun(j *job, next *model.JobID) {
	t.mu.Lock()
	defer t.mu.Unlock()
	j.rerun.busy = false
	j.rerun.next = next
}
