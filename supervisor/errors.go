package supervisor

import "errors"

// Errors a StartError can wrap (test with errors.Is).
var (
	// ErrBadCommand: the command is blank, too long or contains a NUL byte.
	ErrBadCommand = errors.New("bad command")
	// ErrBadDir: the working directory does not exist or is not a directory.
	ErrBadDir = errors.New("bad working directory")
	// ErrBadConfig: another Config field is unusable (Session, Rows, Cols).
	ErrBadConfig = errors.New("bad job configuration")
	// ErrNoShell: bash is not in the job's PATH.
	ErrNoShell = errors.New("bash not found")
	// ErrSupervisor: the supervisor process could not be started or did
	// not answer.
	ErrSupervisor = errors.New("supervisor did not start")
	// ErrUnsupported: this operating system cannot run jobs.
	ErrUnsupported = errors.New("jobs are not supported on this operating system")
)

// ErrNoTTY is returned by Resize for a job whose stdout is a pipe.
var ErrNoTTY = errors.New("supervisor: the job has no pty to resize (its output is a pipe)")

// ErrClosed is returned by Stop after Close.
var ErrClosed = errors.New("supervisor: handle closed; the job is being stopped with its default grace")

// ErrGone is returned by Stop when the supervisor has exited without
// reporting an empty tree (EventLost follows or came already).
var ErrGone = errors.New("supervisor: the job's supervisor is gone; see the EventLost event")

// StartError is returned by Start when the job could not be started at all
// (no bash, a directory that is gone, a command too long for any way of
// passing it). Every error Start returns is a *StartError. Nothing is left
// running.
type StartError struct {
	// Reason is a sentence for people: what failed and what to do.
	Reason string
	// Err is one of the Err* sentinels above, for errors.Is.
	Err error
}

// Error returns "start failed: " and the Reason.
func (e *StartError) Error() string { return "start failed: " + e.Reason }

// Unwrap returns the sentinel error (ErrBadDir, ErrNoShell, …).
func (e *StartError) Unwrap() error { return e.Err }
