package process

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
)

// reap is the only waiter of the supervisor. It peeks at the next exited
// child with waitid(P_ALL, WEXITED|WNOWAIT), which leaves it a zombie, and
// then reaps exactly that pid under reapMu. signalGroup holds reapMu around
// kill(-pgid), so the group is never signalled after the leader's pid was
// released. ECHILD means the tree is empty: with the supervisor a
// subreaper, every descendant is its child or a child of a descendant.
func (s *sup) reap(out chan<- reapMsg) {
	for {
		var si unix.Siginfo
		err := unix.Waitid(unix.P_ALL, 0, &si, unix.WEXITED|unix.WNOWAIT, nil)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.ECHILD):
			out <- reapMsg{kind: reapEmpty}
			return
		case err != nil:
			time.Sleep(10 * time.Millisecond) // not expected; do not spin
			continue
		}
		pid := int(sys.ChildInfoOf(&si).Pid)
		if pid <= 0 {
			continue
		}
		s.reapMu.Lock()
		var ws unix.WaitStatus
		got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		for errors.Is(err, unix.EINTR) {
			got, err = unix.Wait4(pid, &ws, unix.WNOHANG, nil)
		}
		leader := err == nil && got == s.leaderPid && !s.leaderReaped
		if leader {
			s.leaderReaped = true
		}
		s.reapMu.Unlock()
		if leader {
			out <- reapMsg{kind: reapLeader, status: ws}
			continue
		}
		select { // only a hint to recount: drop it when one is pending
		case out <- reapMsg{kind: reapOther}:
		default:
		}
	}
}
