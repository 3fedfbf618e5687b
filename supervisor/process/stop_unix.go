//go:build unix

package process

import (
	"errors"
	"os"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/supervisor/wire"
)

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
		k := t.Key()
		if s.termed[k] {
			continue
		}
		if groupErr == nil && t.Pgid == s.leaderPgid {
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
		if s.termed[t.Key()] {
			termedPid[t.Pid] = true
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
		k := t.Key()
		if s.termed[k] || termedPid[t.PPid] || (groupErr == nil && t.Pgid == s.leaderPgid) {
			continue
		}
		if t.signal(syscall.SIGTERM) == nil {
			s.termed[k] = true
			n++
		}
	}
	_ = s.signalGroup(syscall.SIGCONT)
	for _, t := range targets {
		if s.termed[t.Key()] && t.Pgid != s.leaderPgid {
			_ = t.signal(syscall.SIGCONT)
		}
	}
	closeTargets(targets)
	if n > 0 {
		s.ev.emit(wire.Event{Ev: wire.EvSignalled, Signal: int(syscall.SIGTERM), Count: n})
	}
}

// termOrphans sends SIGTERM (and SIGCONT) to new direct children of the
// supervisor other than the leader: processes orphaned during the grace.
// Fresh children of live processes are left alone; they may be the job's
// own shutdown helpers (a cleanup sleep in a trap, say).
func (s *sup) termOrphans() {
	targets := verifiedTree(s.self, true)
	n := 0
	for _, t := range targets {
		k := t.Key()
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
		s.ev.emit(wire.Event{Ev: wire.EvSignalled, Signal: int(syscall.SIGTERM), Count: n})
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
		k := t.Key()
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
		s.ev.emit(wire.Event{Ev: wire.EvSignalled, Signal: int(syscall.SIGKILL), Count: n})
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
