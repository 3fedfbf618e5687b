package jobs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/jobdeck/jobdeck/model"
)

// Remove takes finished job id out of the table: it is no longer listed
// or readable, and its ring's memory is released. Subscribers get an
// EventRemoved. Errors wrap ErrNotFound, or ErrRunning when any process of
// the job may still run (stop it first) or a restart of it is under way.
func (t *Table) Remove(id model.JobID) error {
	t.mu.Lock()
	j, err := t.findLocked(id)
	if err == nil {
		err = removable(j)
	}
	if err != nil {
		t.mu.Unlock()
		return err
	}
	t.dropLocked(j)
	t.mu.Unlock()
	t.publish(model.Event{Kind: model.EventRemoved, Job: id})
	return nil
}

// Clear removes every finished job (as Remove does) and returns their
// IDs, in ID order; live jobs stay. Nil when none was finished.
func (t *Table) Clear() []model.JobID {
	t.mu.Lock()
	var gone []model.JobID
	for _, j := range slices.Clone(t.jobs) {
		if removable(j) == nil {
			t.dropLocked(j)
			gone = append(gone, j.id)
		}
	}
	t.mu.Unlock()
	for _, id := range gone {
		t.publish(model.Event{Kind: model.EventRemoved, Job: id})
	}
	return gone
}

// removable says why j cannot be removed, or nil. t.mu held.
func removable(j *job) error {
	s := j.snapshot()
	switch {
	case j.rerun.busy:
		return fmt.Errorf("%w: job %s is being restarted: remove it once its new run started", ErrRunning, s.Label())
	case !s.Done:
		return fmt.Errorf("%w: job %s is still running (%s): stop it first, then remove it", ErrRunning, s.Label(), s.Status())
	}
	return nil
}

// dropLocked takes j out of the table at a user's request. t.mu held.
func (t *Table) dropLocked(j *job) {
	t.jobs = slices.DeleteFunc(t.jobs, func(x *job) bool { return x == j })
	t.removed[j.id] = true
	if j.spec.Name != "" {
		t.removedNames[strings.ToLower(j.spec.Name)] = j.id
	}
	j.ring.free()
}
