//go:build unix

package supervisor

import (
	"errors"
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// startFailure is the Reason of a job whose pipes, pty or supervisor
// process could not be made: "what: err", or, when err is EMFILE, that
// this process reached its open-file limit (RLIMIT_NOFILE's soft value,
// read now) and what to do about it; advice follows a plain err only.
func startFailure(what string, err error, advice string) string {
	if errors.Is(err, syscall.EMFILE) {
		return what + ": " + fileLimitReached()
	}
	if advice != "" {
		return fmt.Sprintf("%s: %v (%s)", what, err, advice)
	}
	return fmt.Sprintf("%s: %v", what, err)
}

// fileLimitReached says that jobdeck has as many files open as its limit
// allows, the limit, and what to do: stop jobs, or raise `ulimit -n` where
// jobdeck starts (a shared session keeps the limit it started with).
func fileLimitReached() string {
	limit := "ulimit -n"
	var lim unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) == nil && lim.Cur != unix.RLIM_INFINITY {
		limit = fmt.Sprintf("ulimit -n: %d", lim.Cur)
	}
	return fmt.Sprintf("jobdeck has as many files open as its limit allows (%s); stop some jobs, or raise the limit (ulimit -n 4096) in the shell that starts jobdeck and start it again (a shared session keeps its limit until `jobdeck sessions stop`)", limit)
}
