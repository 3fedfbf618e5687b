package jobs

import (
	"errors"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/supervisor"
)

// Resize sets the size of job id's pty (TIOCSWINSZ) and sends the job
// SIGWINCH, so what it prints from then on fits size (the console gives
// each job its pane's size). A job on pipes (Spec.NoTTY), a job that
// failed to start and a job whose tree is over have nothing to size: that
// is not an error. Errors: ErrNotFound (wrapped); a size out of bounds is
// an *model.InputError (model.ErrBadRequest, model.FieldSize).
func (t *Table) Resize(id model.JobID, size model.TermSize) error {
	if err := model.CheckTermSize(size, model.ErrBadRequest); err != nil {
		return err
	}
	j, err := t.find(id)
	if err != nil {
		return err
	}
	j.mu.Lock()
	h := j.h
	over := j.done || j.treeEmpty
	j.mu.Unlock()
	if h == nil || over {
		return nil
	}
	err = h.Resize(size.Cols, size.Rows)
	if err == nil {
		j.mu.Lock()
		j.size = size
		j.mu.Unlock()
	}
	switch {
	case err == nil, errors.Is(err, supervisor.ErrNoTTY),
		errors.Is(err, supervisor.ErrGone), errors.Is(err, supervisor.ErrClosed):
		// Pipes, or the job ended meanwhile: nothing to size.
		return nil
	}
	return err
}

// termSize is the size of the job's pty as last set: by its spec, or by
// the last Resize (zero: the default).
func (j *job) termSize() model.TermSize {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.size.IsZero() {
		return j.spec.Size
	}
	return j.size
}
