//go:build unix

package process

import (
	"encoding/json"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// Timing of the supervisor's loop (the stop sequence of the package doc;
// ARCHITECTURE.md §2).
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
			var r wire.ControlRequest
			if json.Unmarshal(line, &r) != nil {
				break
			}
			switch r.Op {
			case wire.OpStop:
				s.requestStop(time.Duration(r.GraceNS))
			case wire.OpWinch:
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
