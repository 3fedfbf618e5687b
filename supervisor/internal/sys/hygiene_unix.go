//go:build unix

package sys

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

var hygieneOnce sync.Once

// Hygiene prepares the calling process for starting jobs. It is idempotent;
// jobdeck calls it first thing in main (supervisor.Hygiene), and the
// supervisor process calls it first thing too.
//
//   - Every inherited file descriptor above 2 is marked close-on-exec
//     (close_range(3, ~0, CLOSE_RANGE_CLOEXEC), close_range(2); without it,
//     a walk of /proc/self/fd or /dev/fd), so that fds a parent leaked to
//     jobdeck (measured here: 10–13, 250, 255 from the tool shell) never
//     reach a job. Descriptors are not closed: the caller may still use
//     them (the supervisor its pipes on fds 3–5).
//   - Every signal of SIGHUP SIGINT SIGQUIT SIGTERM SIGPIPE SIGUSR1 SIGUSR2
//     SIGALRM SIGTSTP SIGTTIN SIGTTOU that the process inherited as ignored
//     (signal.Ignored, and the SigIgn mask of /proc/self/status where there
//     is one) gets a handler that drops it. The process itself
//     keeps ignoring it, but execve(2) resets handled signals to the
//     default action while SIG_IGN would survive into every job (measured
//     here: `nohup jobdeck &` gave jobs SIGHUP and SIGINT ignored).
func Hygiene() {
	hygieneOnce.Do(func() {
		markInheritedCloexec()
		unignoreSignals()
	})
}

// hygieneSignals are the signals Hygiene un-ignores.
var hygieneSignals = []os.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM,
	syscall.SIGPIPE, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM,
	syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU,
}

func unignoreSignals() {
	var ignored []os.Signal
	mask, haveMask := ignoredMask()
	for _, sig := range hygieneSignals {
		n := int(sig.(syscall.Signal))
		// signal.Ignored only knows signals the Go runtime looked at when
		// it started; it never looks at SIGTSTP, SIGTTIN and SIGTTOU
		// (runtime.initsig skips signals it leaves at their default), so
		// those would stay SIG_IGN unseen. The kernel's own mask says.
		if signal.Ignored(sig) || (haveMask && mask&(1<<(n-1)) != 0) {
			ignored = append(ignored, sig)
		}
	}
	if len(ignored) == 0 {
		return
	}
	ch := make(chan os.Signal, 16)
	signal.Notify(ch, ignored...)
	go func() {
		for range ch { // still ignored here, but no longer SIG_IGN for exec
		}
	}()
}
