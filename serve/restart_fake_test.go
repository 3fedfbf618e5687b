package serve

import (
	"context"
	"fmt"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// Restart plays the core's restart: a live job is stopped as Kill stops
// it, then its spec starts again as a new job that names the old one; a
// job being stopped is refused.
func (f *fakeCore) Restart(ctx context.Context, id model.JobID, opts model.RestartOptions) (model.Report, error) {
	f.mu.Lock()
	j, err := f.byIDLocked(id)
	if err != nil {
		f.mu.Unlock()
		return model.Report{}, err
	}
	old := j.snap
	f.mu.Unlock()
	if old.Stop != nil && old.Live() {
		return model.Report{}, fmt.Errorf("%w: job %s is being stopped: restart it once it ended", model.ErrRunning, old.Label())
	}
	if old.Live() {
		if _, err := f.Kill(ctx, id, model.KillOptions{Grace: opts.Grace, By: opts.By}); err != nil {
			return model.Report{}, err
		}
	}
	rep, err := f.Start(ctx, model.Spec{Command: old.Command, Name: old.Name, Dir: old.Dir, NoTTY: !old.TTY, Owner: opts.By})
	if err != nil {
		return rep, fmt.Errorf("restart of job %d: stopped, but not started again: %w", id, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	nj := f.jobs[rep.Job.ID]
	nj.snap.RestartOf = &id
	nj.snap.Started = t0.Add(time.Second)
	return f.reportLocked(nj, model.StatusOptions{}, nil), nil
}
