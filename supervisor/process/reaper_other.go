//go:build unix && !linux

package process

import (
	"errors"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// reap is the only waiter of the supervisor. Without waitid(WNOWAIT) it
// polls wait4(-1, WNOHANG) under reapMu, woken by SIGCHLD (and every 100 ms
// in case one is coalesced away), so that signalGroup never signals the
// group after the leader's pid was released.
func (s *sup) reap(out chan<- reapMsg) {
	chld := make(chan os.Signal, 1)
	signal.Notify(chld, syscall.SIGCHLD)
	defer signal.Stop(chld)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		for {
			s.reapMu.Lock()
			var ws unix.WaitStatus
			pid, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
			leader := err == nil && pid == s.leaderPid && !s.leaderReaped
			if leader {
				s.leaderReaped = true
			}
			s.reapMu.Unlock()
			switch {
			case errors.Is(err, unix.EINTR):
				continue
			case errors.Is(err, unix.ECHILD):
				out <- reapMsg{kind: reapEmpty}
				return
			case err != nil || pid <= 0:
			case leader:
				out <- reapMsg{kind: reapLeader, status: ws}
				continue
			default:
				select {
				case out <- reapMsg{kind: reapOther}:
				default:
				}
				continue
			}
			break
		}
		select {
		case <-chld:
		case <-tick.C:
		}
	}
}
