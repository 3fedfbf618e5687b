package supervisor

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
)

// exitWaiter reaps one supervisor without holding an OS thread while it
// runs. os.Process.Wait blocks a thread in waitid(2) for the supervisor's
// whole life, one per job; every thread counts against the user's
// RLIMIT_NPROC, and when a job's fork bomb leaves none for a new one the Go
// runtime aborts the whole process (runtime/cgo: pthread_create failed).
// Instead the supervisor's pidfd (CLONE_PIDFD) is put in non-blocking mode
// and into Go's netpoller: it becomes readable when the supervisor exits
// (pidfd_open(2)), and waitid(P_PIDFD, WNOHANG) then reaps exactly that
// process.
type exitWaiter struct {
	proc *os.Process
	f    *os.File // the pidfd, or nil: fall back to proc.Wait
}

// supervisorPidfd asks fork to return a pidfd of the supervisor in *fd.
func supervisorPidfd(attr *syscall.SysProcAttr, fd *int) { attr.PidFD = fd }

// newExitWaiter takes over pidfd (-1: none).
func newExitWaiter(p *os.Process, pidfd int) *exitWaiter {
	w := &exitWaiter{proc: p}
	if pidfd < 0 {
		return w
	}
	if err := unix.SetNonblock(pidfd, true); err != nil {
		unix.Close(pidfd)
		return w
	}
	w.f = os.NewFile(uintptr(pidfd), "supervisor-pidfd")
	return w
}

// wait reaps the supervisor and says how it ended, in the words of
// os.ProcessState.String ("signal: killed", "exit status 1").
func (w *exitWaiter) wait() (string, error) {
	if w.f == nil {
		st, err := w.proc.Wait()
		if st == nil {
			return "", err
		}
		return st.String(), err
	}
	defer func() {
		w.f.Close()
		_ = w.proc.Release() // its own pidfd; the process is reaped
	}()
	rc, err := w.f.SyscallConn()
	if err != nil {
		return "", err
	}
	var desc string
	var werr error
	err = rc.Read(func(fd uintptr) bool {
		desc, werr = waitPidfd(int(fd), unix.WNOHANG)
		return desc != "" || werr != nil
	})
	if err != nil && desc == "" && werr == nil {
		// Not in the netpoller after all: wait the blocking way.
		fd := int(w.f.Fd()) // Fd makes it blocking again
		desc, werr = waitPidfd(fd, 0)
	}
	return desc, werr
}

// waitPidfd reaps the process behind fd with waitid(P_PIDFD). With
// WNOHANG, desc is "" while it runs.
func waitPidfd(fd int, flags int) (desc string, err error) {
	var si unix.Siginfo
	for {
		err = unix.Waitid(unix.P_PIDFD, fd, &si, unix.WEXITED|flags, nil)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		return "", err
	}
	ci := sys.ChildInfoOf(&si)
	if ci.Pid == 0 {
		return "", nil
	}
	return describeExit(ci.Code, int(ci.Status)), nil
}

// si_code values of a waitid result (siginfo.h); x/sys/unix has no names
// for them.
const (
	cldExited = 1
	cldKilled = 2
	cldDumped = 3
)

// describeExit words a waitid result the way os.ProcessState.String does.
func describeExit(code int32, status int) string {
	switch code {
	case cldExited:
		return fmt.Sprintf("exit status %d", status)
	case cldKilled:
		return "signal: " + syscall.Signal(status).String()
	case cldDumped:
		return "signal: " + syscall.Signal(status).String() + " (core dumped)"
	}
	return fmt.Sprintf("ended (waitid code %d, status %d)", code, status)
}
