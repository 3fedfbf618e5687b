package jobs

import "errors"

// Sentinel errors of the jobs core. Every error the core returns wraps one of
// these, with a message that says what to do next; test with errors.Is.
var (
	// ErrNotFound: no job has that ID or name.
	ErrNotFound = errors.New("no such job")
	// ErrAmbiguous: a name matches more than one job.
	ErrAmbiguous = errors.New("name matches more than one job")
	// ErrLimit: the running-jobs limit (8) is reached.
	ErrLimit = errors.New("too many running jobs")
	// ErrDuplicate: the same command is already running in the same
	// directory.
	ErrDuplicate = errors.New("already running")
	// ErrBadSpec: the command, name or directory cannot be used.
	ErrBadSpec = errors.New("bad job spec")
	// ErrBadRequest: a status or read request is out of range (lines,
	// since, wait).
	ErrBadRequest = errors.New("bad request")
	// ErrClosed: the table was closed; no new jobs start.
	ErrClosed = errors.New("jobs table closed")
)
