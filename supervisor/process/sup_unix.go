//go:build unix

package process

import (
	"os"
	"sync"
	"time"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// sup is the supervisor's state. Everything but the fields under reapMu is
// owned by the main goroutine.
type sup struct {
	req   wire.StartRequest
	ev    *emitter
	self  int
	grace time.Duration // for EOF and signals

	out, errf *os.File   // fds 4 and 5 until the leader has them
	cg        *jobCgroup // nil: no cgroup
	limit     procLimit  // what bounds the job's processes
	limitSaid bool       // the "limit" event was sent
	nextLimit time.Time  // when the limit may be checked again
	tmpDir    string     // private directory (stop mark, command file), or ""
	notes     []string

	leaderPid    int
	leaderKey    sys.Key
	leaderPgid   int
	leaderFD     int  // the leader's pidfd (CLONE_PIDFD), -1 if none
	noPidfdGroup bool // PIDFD_SIGNAL_PROCESS_GROUP is not supported

	reapMu       sync.Mutex
	leaderReaped bool // guarded by reapMu: the leader's pid may be reused

	leaderGone bool // the exit event was sent
	stopping   bool
	killing    bool
	deadline   time.Time // end of the grace
	nextOrphan time.Time
	nextKill   time.Time
	termed     map[sys.Key]bool // got SIGTERM (each at most once)
	killed     map[sys.Key]bool // got SIGKILL from a sweep
	reported   int              // Remaining last sent, -1 before any
	countDirty bool             // a reap happened since the last count
	lastCount  time.Time
}

// fail reports "failed", releases what was set up and returns code.
func (s *sup) fail(kind, reason string, code int) int {
	s.closeOutput()
	if s.cg != nil {
		_ = s.cg.remove(time.Second)
		s.cg = nil
	}
	if s.tmpDir != "" {
		_ = os.RemoveAll(s.tmpDir)
	}
	s.ev.emit(wire.Event{Ev: wire.EvFailed, Kind: kind, Reason: reason})
	return code
}

// closeOutput closes the supervisor's copies of the job's stdout and
// stderr, so that jobdeck reads EOF once the tree has let go of them.
func (s *sup) closeOutput() {
	if s.out != nil {
		s.out.Close()
		s.out = nil
	}
	if s.errf != nil {
		s.errf.Close()
		s.errf = nil
	}
}
