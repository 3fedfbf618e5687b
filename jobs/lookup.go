package jobs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jobdeck/jobdeck/model"
)

// Resolve turns a selector (an ID, or a case-insensitive name) into an ID.
// A name means the newest job that has it, running or finished: a live
// job's name cannot be taken by another (Start refuses), so after "stop
// web, start web" the name means the new one, and it keeps meaning the
// last job named so once that one ended too. Errors wrap ErrNotFound.
// Callers resolve once and then work by ID, so that a selector cannot come
// to mean another job between two calls.
func (t *Table) Resolve(sel string) (model.JobID, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	sel = strings.TrimSpace(sel)
	if sel == "" {
		return 0, fmt.Errorf("%w: give a job ID or name", ErrNotFound)
	}
	if n, err := strconv.Atoi(sel); err == nil {
		j, err := t.findLocked(model.JobID(n))
		if err != nil {
			return 0, err
		}
		return j.id, nil
	}
	for i := len(t.jobs) - 1; i >= 0; i-- {
		if j := t.jobs[i]; j.spec.Name != "" && strings.EqualFold(j.spec.Name, sel) {
			return j.id, nil
		}
	}
	if id, ok := t.removedNames[strings.ToLower(sel)]; ok {
		return 0, fmt.Errorf("%w: job %d (%s) finished and was removed from the list%s", ErrNotFound, id, sel, removedNote)
	}
	return 0, fmt.Errorf("%w: no job is named %q; give a job ID or one of the names", ErrNotFound, sel)
}

// find returns the job with id. Errors wrap ErrNotFound and say whether
// the job was dropped or never existed. t.mu must not be held.
func (t *Table) find(id model.JobID) (*job, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.findLocked(id)
}

// findLocked is find with t.mu held.
func (t *Table) findLocked(id model.JobID) (*job, error) {
	for _, j := range t.jobs {
		if j.id == id {
			return j, nil
		}
	}
	if t.removed[id] {
		return nil, fmt.Errorf("%w: job %d finished and was removed from the list%s", ErrNotFound, id, removedNote)
	}
	if id >= 0 && id < t.nextID {
		return nil, fmt.Errorf("%w: job %d finished and was dropped (only the %d most recent finished jobs are kept)", ErrNotFound, id, t.opts.MaxFinished)
	}
	if len(t.jobs) == 0 {
		return nil, fmt.Errorf("%w: there is no job %d; no jobs were started yet", ErrNotFound, id)
	}
	return nil, fmt.Errorf("%w: there is no job %d; the jobs are %d to %d", ErrNotFound, id, t.jobs[0].id, t.jobs[len(t.jobs)-1].id)
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
	j, err := t.find(id)
	if err != nil {
		return model.Snapshot{}, false
	}
	return j.snapshot(), true
}

// Read returns lines of one job's ring (see model.ReadRequest). It never
// waits. Errors wrap ErrNotFound, or ErrBadRequest for a cursor over
// model.MaxCursor or a negative limit.
func (t *Table) Read(id model.JobID, req model.ReadRequest) (model.Page, error) {
	j, err := t.find(id)
	if err != nil {
		return model.Page{}, err
	}
	if req.After > model.MaxCursor || req.Limit < 0 {
		return model.Page{}, fmt.Errorf("%w: read after %d, limit %d: give a cursor from 0 to %d and a limit of 0 or more", model.ErrBadRequest, req.After, req.Limit, uint64(model.MaxCursor))
	}
	return j.ring.read(req), nil
}

// removedNote says what removed a job: it is gone for every client of the
// session, its output too.
const removedNote = " (a console's d or /clear removes a finished job, and its output, for every client of the session)"
