package jobs

import "github.com/jobdeck/jobdeck/model"

// Sentinel errors of the jobs core, the same values as model's (so that
// packages that only know model can test them): every error the core
// returns wraps one of these, with a message that says what to do next.
var (
	ErrNotFound   = model.ErrNotFound
	ErrAmbiguous  = model.ErrAmbiguous
	ErrLimit      = model.ErrLimit
	ErrDuplicate  = model.ErrDuplicate
	ErrBadSpec    = model.ErrBadSpec
	ErrBadRequest = model.ErrBadRequest
	ErrClosed     = model.ErrClosed
	ErrRunning    = model.ErrRunning
)
