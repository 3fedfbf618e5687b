package model

import (
	"context"
	"errors"
)

// Sentinel errors of the jobs core. Every error the core returns wraps one
// of these, with a message that says what to do next in words that name
// no surface; callers (the UI, the MCP server) test them with errors.Is
// without importing the core, and reword them for their own surface.
// Each has a stable code (ErrorCode) for errors that cross a wire.
var (
	// ErrNotFound: no job has that ID or name. Code "not_found".
	ErrNotFound = errors.New("no such job")
	// ErrAmbiguous: a name matches more than one job. Code "ambiguous".
	ErrAmbiguous = errors.New("name matches more than one job")
	// ErrLimit: the running-jobs limit (8) is reached. Code "limit".
	ErrLimit = errors.New("too many running jobs")
	// ErrDuplicate: the same command is already running in the same
	// directory, or a running job has the name. Code "duplicate".
	ErrDuplicate = errors.New("already running")
	// ErrBadSpec: the command, name, directory, environment or grace of a
	// start cannot be used (an *InputError says which). Code "bad_spec".
	ErrBadSpec = errors.New("bad job spec")
	// ErrBadRequest: a status, read or stop request is out of range
	// (lines, since, wait, until, grace; an *InputError says which). Code
	// "bad_request".
	ErrBadRequest = errors.New("bad request")
	// ErrClosed: jobdeck is shutting down; no new jobs start. Code
	// "closed".
	ErrClosed = errors.New("jobs table closed")
	// ErrUnavailable: the jobs core cannot be reached (a remote core whose
	// link was lost). Code "unavailable".
	ErrUnavailable = errors.New("jobs core unavailable")
	// ErrRunning: the job is still running or being stopped, and the
	// request needs it over (a removal), or not being stopped (a
	// restart). Code "running".
	ErrRunning = errors.New("job still running")
)

// errorCodes maps each sentinel to its stable code. Codes never change
// meaning; new sentinels get new codes.
var errorCodes = []struct {
	code string
	err  error
}{
	{"not_found", ErrNotFound},
	{"ambiguous", ErrAmbiguous},
	{"limit", ErrLimit},
	{"duplicate", ErrDuplicate},
	{"bad_spec", ErrBadSpec},
	{"bad_request", ErrBadRequest},
	{"closed", ErrClosed},
	{"unavailable", ErrUnavailable},
	{"running", ErrRunning},
	{"canceled", context.Canceled},
	{"deadline", context.DeadlineExceeded},
}

// CodeInternal is ErrorCode's answer for an error that wraps none of the
// sentinels.
const CodeInternal = "internal"

// ErrorCode returns the stable code of the sentinel err wraps ("not_found",
// "ambiguous", "limit", "duplicate", "bad_spec", "bad_request", "closed",
// "unavailable", "running", "canceled" for context.Canceled, "deadline" for
// context.DeadlineExceeded), CodeInternal for any other error, and "" for
// nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	for _, c := range errorCodes {
		if errors.Is(err, c.err) {
			return c.code
		}
	}
	return CodeInternal
}

// CodeError is the way back from ErrorCode: the sentinel with that code,
// or nil for an unknown code (CodeInternal and "" included). A receiver of
// a code and a message rebuilds the error as
// fmt.Errorf("%w: %s", CodeError(code), msg) when CodeError is not nil.
func CodeError(code string) error {
	for _, c := range errorCodes {
		if c.code == code {
			return c.err
		}
	}
	return nil
}
