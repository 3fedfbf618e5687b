//go:build unix

package process

import (
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// onLeaderExit reports the leader's exit status and how many processes
// of the tree still run.
func (s *sup) onLeaderExit(ws unix.WaitStatus) {
	s.leaderGone = true
	w := wire.Event{Ev: wire.EvExit}
	if ws.Signaled() {
		w.Signal, w.Core = int(ws.Signal()), ws.CoreDump()
	} else {
		w.Code = ws.ExitStatus()
	}
	w.Remaining = s.countRunning()
	s.reported, s.lastCount, s.countDirty = w.Remaining, time.Now(), false
	s.ev.emit(w)
}

// recount sends EventRemaining when the number of running processes
// changed.
func (s *sup) recount(now time.Time) {
	s.lastCount, s.countDirty = now, false
	n, tree := s.countTree()
	s.checkLimit(now, tree, false)
	if n != s.reported {
		s.reported = n
		s.ev.emit(wire.Event{Ev: wire.EvRemaining, Remaining: n})
	}
}

// countRunning counts the tree's processes that have not exited, the
// leader excluded.
//
// A process counts with everything it started: what is counted are the
// supervisor's own children other than the leader, that is the processes
// the leader (or a process that exited since) left behind, each of which
// came back to the subreaper. `(while :; do echo tick; sleep 1; done) &
// exit 0` leaves 1 running, not 1 plus whichever sleep is current.
func (s *sup) countRunning() int {
	n, _ := s.countTree()
	return n
}

// countTree is countRunning, and the number of the tree's live processes.
func (s *sup) countTree() (running, tree int) {
	for _, p := range sys.Walk(s.self) {
		if p.Zombie() {
			continue
		}
		tree++
		if p.Key() != s.leaderKey && p.PPid == s.self {
			running++
		}
	}
	return running, tree
}

// checkLimit sends the "limit" event (once) when the job is at its process
// limit (procLimit.reached), looking at most every limitEvery unless
// force. tree is the number of the tree's live processes, if known.
func (s *sup) checkLimit(now time.Time, tree int, force bool) {
	if s.limitSaid || (!force && now.Before(s.nextLimit)) {
		return
	}
	s.nextLimit = now.Add(limitEvery)
	cg := ""
	if s.cg != nil {
		cg = s.cg.dir
	}
	if msg := s.limit.reached(cg, tree, force); msg != "" {
		s.limitSaid = true
		s.ev.emit(wire.Event{Ev: wire.EvLimit, Reason: msg})
	}
}

// finish reports the empty tree (after a last "remaining 0" when a
// non-zero count was reported) and removes the cgroup and the command
// file's directory.
func (s *sup) finish() {
	if s.reported > 0 {
		s.ev.emit(wire.Event{Ev: wire.EvRemaining, Remaining: 0})
	}
	s.nextLimit = time.Time{} // a last look (pids.events counts every refused fork)
	s.checkLimit(time.Now(), 0, false)
	if s.cg != nil {
		// What the kernel's OOM killer did in the job's cgroup (read
		// before the cgroup goes), so that a SIGKILL nobody sent is
		// explained only when it was that (ARCHITECTURE.md §5).
		if n := oomKills(s.cg.dir); n > 0 {
			s.ev.emit(wire.Event{Ev: wire.EvOOM, Count: n})
		}
	}
	s.ev.emit(wire.Event{Ev: wire.EvEmpty})
	if s.cg != nil {
		_ = s.cg.remove(time.Second)
	}
	if s.tmpDir != "" {
		_ = os.RemoveAll(s.tmpDir)
	}
	if s.leaderFD >= 0 {
		unix.Close(s.leaderFD)
		s.leaderFD = -1
	}
}
