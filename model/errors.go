package model

import "errors"

// Sentinel errors of the jobs core. Every error the core returns wraps one
// of these, with a message that says what to do next; callers (the UI, the
// MCP server) test them with errors.Is without importing the core.
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
	// ErrBadRequest: a status, read or kill request is out of range
	// (lines, since, wait, grace).
	ErrBadRequest = errors.New("bad request")
	// ErrClosed: jobdeck is shutting down; no new jobs start.
	ErrClosed = errors.New("jobs table closed")
)
