package process

import (
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
)

// verifiedTree opens every descendant of root as a pidfd and keeps it only
// when, read after the pidfd was opened, its parent is root or a
// descendant verified earlier in this walk: the ppid chain still reaches
// root. A pid that was recycled between the walk and pidfd_open fails that
// check; one recycled after pidfd_open cannot be reached through the fd.
// Zombies are left out (nothing to signal). With directOnly, only root's
// own children are looked at. The caller closes the targets with
// closeTargets.
func verifiedTree(root int, directOnly bool) []target {
	childrenOf := sys.ChildLister(sys.HasChildrenFiles())
	var out []target
	verified := map[int]bool{root: true}
	queue := childrenOf(root)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if verified[pid] {
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue // gone, or no pidfd support (then nothing can be signalled safely)
		}
		st, err := sys.ReadStat(pid)
		if err != nil || !verified[st.PPid] {
			unix.Close(fd)
			continue
		}
		verified[pid] = true
		if !directOnly {
			queue = append(queue, childrenOf(pid)...)
		}
		if st.Zombie() {
			unix.Close(fd)
			continue
		}
		out = append(out, target{Stat: st, fd: fd})
	}
	return out
}

// signal sends sig through the pidfd (pidfd_send_signal(2)). ESRCH means
// the process has exited meanwhile.
func (t target) signal(sig syscall.Signal) error {
	return unix.PidfdSendSignal(t.fd, sig, nil, 0)
}
