//go:build unix && !linux

package process

import (
	"fmt"
	"runtime"
	"syscall"
)

// treeWalks is false here: without /proc and pidfds the supervisor cannot
// list the tree or signal a descendant without risking a recycled pid.
const treeWalks = false

// becomeSubreaper cannot: there is no PR_SET_CHILD_SUBREAPER here. It
// says what that costs.
func becomeSubreaper() []string {
	return []string{fmt.Sprintf("no subreaper, pidfds or /proc on %s: only the leader's process group is stopped, and only while the leader runs; processes that start their own session or outlive the leader are not tracked, and remaining counts are 0", runtime.GOOS)}
}

// leaderAttr is the leader's SysProcAttr: a session of its own (no
// controlling terminal unless ctty). There is no Pdeathsig, pidfd or
// cgroup here.
func leaderAttr(ctty bool, _ *jobCgroup, _ *int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: ctty, Ctty: 1}
}

// pidfdSignalGroup is not available: signalGroup falls back to kill(-pgid)
// while the leader is unreaped.
func pidfdSignalGroup(int, syscall.Signal) error { return syscall.ENOSYS }
