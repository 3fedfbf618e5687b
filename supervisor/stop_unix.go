//go:build unix

package supervisor

import (
	"encoding/json"
	"errors"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Timing of the supervisor's loop (DESIGN §3, notes §3.2).
const (
	sweepGap    = 5 * time.Millisecond   // between the two SIGTERM sweeps: children in transit
	orphanEvery = 50 * time.Millisecond  // during the grace: SIGTERM new orphans
	killEvery   = 20 * time.Millisecond  // after the grace: SIGKILL rounds until ECHILD
	countEvery  = 500 * time.Millisecond // recount while the leader is gone or a stop runs
	countMinGap = 20 * time.Millisecond  // coalesce recounts after bursts of reaps
	limitEvery  = 250 * time.Millisecond // at most this often, for a big tree: is the job at its process limit?
)

// reapKind says what the reaper saw.
type reapKind uint8

const (
	reapLeader reapKind = iota + 1 // the leader was reaped; status is set
	reapOther                      // another process was reaped (a hint: recount)
	reapEmpty                      // wait4 said ECHILD: the tree is empty
)

type reapMsg struct {
	kind   reapKind
	status unix.WaitStatus
}

// loop runs the job until its tree is empty. It owns all state but the
// reaper's; it never blocks on anything but its select (and the 5 ms between
// the two SIGTERM sweeps), so a stop is always heard.
func (s *sup) loop(ctl <-chan []byte, sigs <-chan os.Signal) int {
	reaps := make(chan reapMsg, 16)
	go s.reap(reaps)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := time.Now()
		if next, ok := s.nextWake(); ok {
			timer.Reset(max(next.Sub(now), 0))
		} else {
			timer.Stop()
		}
		select {
		case line, ok := <-ctl:
			if !ok {
				// EOF: jobdeck is gone (or closed the handle).
				ctl = nil
				s.requestStop(s.grace)
				break
			}
			var r controlRequest
			if json.Unmarshal(line, &r) != nil {
				break
			}
			switch r.Op {
			case opStop:
				s.requestStop(time.Duration(r.GraceNS))
			case opWinch:
				// The pty is not the job's controlling terminal
				// (Config.Ctty), so the kernel sends no SIGWINCH
				// on a resize: the supervisor does, to the group
				// a terminal's foreground would be. ESRCH: no one
				// is left to tell.
				_ = s.signalGroup(syscall.SIGWINCH)
			}
		case <-sigs:
			s.requestStop(s.grace)
		case m := <-reaps:
			switch m.kind {
			case reapLeader:
				s.onLeaderExit(m.status)
			case reapOther:
				s.countDirty = true
			case reapEmpty:
				s.finish()
				return 0
			}
		case <-timer.C:
		}
		s.tick(time.Now())
	}
}

// nextWake is when tick has work next; ok is false when only an event can
// bring work.
func (s *sup) nextWake() (next time.Time, ok bool) {
	set := func(t time.Time) {
		if !ok || t.Before(next) {
			next, ok = t, true
		}
	}
	switch {
	case s.killing:
		set(s.nextKill)
	case s.stopping:
		set(s.deadline)
		set(s.nextOrphan)
	}
	if s.leaderGone || s.stopping {
		if s.countDirty {
			set(s.lastCount.Add(countMinGap))
		}
		if s.stopping || s.reported != 0 {
			set(s.lastCount.Add(countEvery))
		}
	}
	return next, ok
}

// tick does whatever work is due at now.
func (s *sup) tick(now time.Time) {
	if s.killing && !now.Before(s.nextKill) {
		s.killRound()
		s.nextKill = now.Add(killEvery)
	}
	if s.stopping && !s.killing {
		if !now.Before(s.deadline) {
			s.startKilling(now)
		} else if !now.Before(s.nextOrphan) {
			s.termOrphans()
			s.nextOrphan = now.Add(orphanEvery)
		}
	}
	if s.leaderGone || s.stopping {
		due := s.countDirty && !now.Before(s.lastCount.Add(countMinGap))
		due = due || ((s.stopping || s.reported != 0) && !now.Before(s.lastCount.Add(countEvery)))
		if due {
			s.recount(now)
		}
	}
}

// requestStop starts the stop sequence with grace, or shortens the running
// one. Zero grace means SIGKILL at once.
func (s *sup) requestStop(grace time.Duration) {
	now := time.Now()
	switch {
	case s.killing:
		return
	case !s.stopping:
		s.stopping = true
		// Before any signal: a fork bomb is at its limit now, not once
		// SIGTERM thinned it out.
		s.checkLimit(now, 0, true)
		// Tell the leader's wrapper that this stop is jobdeck's (see
		// wrapperTrap) before any signal goes out.
		if mark := stopMark(s.tmpDir); mark != "" {
			_ = os.WriteFile(mark, nil, 0o600)
		}
		if grace <= 0 {
			s.startKilling(now)
			return
		}
		s.deadline = now.Add(grace)
		s.termPhase()
		s.nextOrphan = time.Now().Add(orphanEvery)
	default:
		if d := now.Add(grace); d.Before(s.deadline) {
			s.deadline = d
		}
		if grace <= 0 {
			s.startKilling(now)
		}
	}
}

// termPhase sends SIGTERM once to the leader's process group and to every
// descendant, sweeps again after 5 ms for children that were being
// created, then sends SIGCONT to the same processes: a stopped process
// keeps SIGTERM pending until it runs (signal(7)).
func (s *sup) termPhase() {
	n := 0
	// Open the tree first, then signal the group: a process seen here and
	// found in the leader's group got the group's SIGTERM and is not sent
	// a second one (many CLIs treat a second SIGTERM/SIGINT as "force").
	targets := verifiedTree(s.self, false)
	groupErr := s.signalGroup(syscall.SIGTERM)
	if groupErr == nil && !treeWalks {
		n++ // no tree walk here: count the leader's group as one
	}
	for _, t := range targets {
		k := t.key()
		if s.termed[k] {
			continue
		}
		if groupErr == nil && t.pgid == s.leaderPgid {
			s.termed[k] = true
			n++
			continue
		}
		if t.signal(syscall.SIGTERM) == nil {
			s.termed[k] = true
			n++
		}
	}
	termedPid := make(map[int]bool, len(targets))
	for _, t := range targets {
		if s.termed[t.key()] {
			termedPid[t.pid] = true
		}
	}
	closeTargets(targets)
	time.Sleep(sweepGap)
	// The second sweep is for processes that were being created by a
	// process the first one missed. It leaves alone what the first
	// SIGTERM's handlers start: new members of the leader's group (the
	// kernel delivers a group signal to children still being forked, so
	// those were created after it) and new children of processes that were
	// sent SIGTERM (shutdown helpers, like a cleanup sleep in a trap). If
	// such a parent dies instead, its children come back to the
	// supervisor and the orphan sweep sends them SIGTERM.
	targets = verifiedTree(s.self, false)
	for _, t := range targets {
		k := t.key()
		if s.termed[k] || termedPid[t.ppid] || (groupErr == nil && t.pgid == s.leaderPgid) {
			continue
		}
		if t.signal(syscall.SIGTERM) == nil {
			s.termed[k] = true
			n++
		}
	}
	_ = s.signalGroup(syscall.SIGCONT)
	for _, t := range targets {
		if s.termed[t.key()] && t.pgid != s.leaderPgid {
			_ = t.signal(syscall.SIGCONT)
		}
	}
	closeTargets(targets)
	if n > 0 {
		s.ev.emit(wireEvent{Ev: evSignalled, Signal: int(syscall.SIGTERM), Count: n})
	}
}

// termOrphans sends SIGTERM (and SIGCONT) to new direct children of the
// supervisor other than the leader: processes orphaned during the grace.
// Fresh children of live processes are left alone; they may be the job's
// own shutdown helpers (notes §3.2, case 02).
func (s *sup) termOrphans() {
	targets := verifiedTree(s.self, true)
	n := 0
	for _, t := range targets {
		k := t.key()
		if k == s.leaderKey || s.termed[k] {
			continue
		}
		if t.signal(syscall.SIGTERM) == nil {
			s.termed[k] = true
			n++
			_ = t.signal(syscall.SIGCONT)
		}
	}
	closeTargets(targets)
	if n > 0 {
		s.ev.emit(wireEvent{Ev: evSignalled, Signal: int(syscall.SIGTERM), Count: n})
	}
}

// startKilling ends the grace: SIGKILL rounds until the reaper reports an
// empty tree.
func (s *sup) startKilling(now time.Time) {
	s.stopping, s.killing = true, true
	s.killRound()
	s.nextKill = now.Add(killEvery)
}

// killRound sends SIGKILL to every descendant not yet killed, to the
// leader's process group and to the cgroup. Killed processes cannot fork,
// so repeated rounds converge even on fork bombs.
func (s *sup) killRound() {
	n := 0
	targets := verifiedTree(s.self, false)
	for _, t := range targets {
		k := t.key()
		if s.killed[k] {
			continue
		}
		if t.signal(syscall.SIGKILL) == nil {
			s.killed[k] = true
			n++
		}
	}
	closeTargets(targets)
	if s.signalGroup(syscall.SIGKILL) == nil && !treeWalks && !s.killed[s.leaderKey] {
		s.killed[s.leaderKey] = true
		n++
	}
	if s.cg != nil {
		_ = s.cg.kill()
	}
	if n > 0 {
		s.ev.emit(wireEvent{Ev: evSignalled, Signal: int(syscall.SIGKILL), Count: n})
	}
}

// signalGroup signals the leader's process group. On Linux >= 6.9 it goes
// through the leader's pidfd (PIDFD_SIGNAL_PROCESS_GROUP), which stays
// valid after the leader was reaped. Otherwise kill(-pgid) is used, and
// only while the leader is unreaped: its zombie keeps the group id from
// being reused. ESRCH means the group is empty (or gone).
func (s *sup) signalGroup(sig syscall.Signal) error {
	if s.leaderFD >= 0 && !s.noPidfdGroup {
		err := pidfdSignalGroup(s.leaderFD, sig)
		if err == nil || errors.Is(err, syscall.ESRCH) {
			return err
		}
		s.noPidfdGroup = true // EINVAL: kernel < 6.9
	}
	s.reapMu.Lock()
	defer s.reapMu.Unlock()
	if s.leaderReaped {
		return syscall.ESRCH
	}
	return syscall.Kill(-s.leaderPgid, sig)
}

// onLeaderExit reports the leader's exit status and how many processes
// of the tree still run.
func (s *sup) onLeaderExit(ws unix.WaitStatus) {
	s.leaderGone = true
	w := wireEvent{Ev: evExit}
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
		s.ev.emit(wireEvent{Ev: evRemaining, Remaining: n})
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
	for _, p := range walkTree(s.self) {
		if p.zombie() {
			continue
		}
		tree++
		if p.key() != s.leaderKey && p.ppid == s.self {
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
		s.ev.emit(wireEvent{Ev: evLimit, Reason: msg})
	}
}

// finish reports the empty tree (after a last "remaining 0" when a
// non-zero count was reported) and removes the cgroup and the command
// file's directory.
func (s *sup) finish() {
	if s.reported > 0 {
		s.ev.emit(wireEvent{Ev: evRemaining, Remaining: 0})
	}
	s.nextLimit = time.Time{} // a last look (pids.events counts every refused fork)
	s.checkLimit(time.Now(), 0, false)
	s.ev.emit(wireEvent{Ev: evEmpty})
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
