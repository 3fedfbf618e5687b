package process

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// treeWalks is true where the supervisor can list and signal the whole
// tree (/proc, pidfds).
const treeWalks = true

// becomeSubreaper marks the supervisor PR_SET_CHILD_SUBREAPER (prctl(2)):
// orphans of the tree (double forks, setsid'd daemons whose parent exited)
// are re-parented to it instead of to init, so the tree walk finds them and
// wait4 reports ECHILD only when all of them are gone.
func becomeSubreaper() []string {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return []string{fmt.Sprintf("could not become a child subreaper (%v): processes that outlive their parent go to init and are not stopped", err)}
	}
	return nil
}

// leaderAttr is the leader's SysProcAttr: a session of its own (no
// controlling terminal unless ctty, so /dev/tty gives ENXIO and terminal
// signals never reach it), SIGKILL when the supervisor's thread dies, a
// pidfd (CLONE_PIDFD) for signalling its process group even after it was
// reaped, and CLONE_INTO_CGROUP when the job has a cgroup.
func leaderAttr(ctty bool, cg *jobCgroup, pidfd *int) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{
		Setsid:    true,
		Setctty:   ctty,
		Ctty:      1, // the child's fd number: its stdout, the pty slave
		Pdeathsig: syscall.SIGKILL,
		PidFD:     pidfd,
	}
	if cg != nil {
		a.UseCgroupFD, a.CgroupFD = true, cg.fd
	}
	return a
}

// pidfdSignalGroup sends sig to the process group of the process behind
// fd (pidfd_send_signal(2) with PIDFD_SIGNAL_PROCESS_GROUP, Linux >= 6.9;
// EINVAL before).
func pidfdSignalGroup(fd int, sig syscall.Signal) error {
	return unix.PidfdSendSignal(fd, sig, nil, unix.PIDFD_SIGNAL_PROCESS_GROUP)
}
