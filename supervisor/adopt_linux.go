package supervisor

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
)

// Timing of the orphan sweeps in the process that hosts the jobs.
const (
	// orphanTick is how often sweeps repeat while orphans are left (a
	// killed process needs a moment to exit, and its own children come
	// back to us only then).
	orphanTick = 10 * time.Millisecond
	// orphanFast is how long sweeps repeat every orphanTick after a
	// SIGCHLD; after it, every orphanSlow while an orphan stays (one stuck
	// in uninterruptible sleep, say).
	orphanFast = 2 * time.Second
	orphanSlow = time.Second
	// orphanSettle bounds how long a lost supervisor's cleanup waits for
	// the orphans of its tree to be gone before it reports EventLost.
	orphanSettle = 2 * time.Second
)

// adopter is the orphan reaper of the process that hosts the jobs (see
// AdoptOrphans). mu serialises sweeps, so each orphan is handled by one
// sweep at a time.
var adopter struct {
	on    atomic.Bool
	once  sync.Once
	err   error
	self  int
	sid   int
	ended atomic.Int64 // orphans reaped since AdoptOrphans
	mu    sync.Mutex
}

// AdoptOrphans makes the calling process, the one that hosts the jobs
// core, a child subreaper (PR_SET_CHILD_SUBREAPER, prctl(2)) and starts its
// orphan reaper. When a supervisor dies without emptying its tree (it was
// SIGKILLed, or crashed), the processes of that tree re-parent to this
// process instead of to init, wherever they went (setsid, double fork,
// `env -i`: no marker, argv or cgroup is needed to find them). The reaper
// SIGKILLs and reaps them, and, as each one dies, its own children come
// back in turn, until none is left.
//
// What counts as an orphan: a child of this process that is in another
// session than this process. Every job runs in a session of its own (its
// leader calls setsid) and no process can join an existing session, so
// everything of a job's tree is in another session; the supervisors are
// started in this process's session (Start gives them a process group of
// their own, not a session), and so is whatever else this process starts
// with os/exec, unless it asks for Setsid. So a process that calls
// AdoptOrphans must start no child with Setsid that it means to keep: it
// would be taken for an orphan. Children in this process's session are
// never touched, whether they are its own or came back from elsewhere (a
// zombie of such an orphan stays until this process exits).
//
// The reaper never calls wait4(-1) or waitid(P_ALL): it would steal the
// exit status os/exec waits for. It lists this process's children
// (/proc/self/task/*/children), opens each candidate as a pidfd, checks
// again through /proc that it is still a child in another session, sends
// SIGKILL through the pidfd and reaps exactly that process with
// waitid(P_PIDFD, WNOHANG). It sweeps on every SIGCHLD, then every 10 ms
// while orphans are left (every second after 2 s), and a lost supervisor's
// cleanup sweeps until none is left (at most 2 s) before EventLost is
// reported.
//
// It is idempotent; the first call's error is returned by every call. It
// fails only where the kernel refuses the prctl; nothing is started then.
// When jobdeck and a supervisor die together, nothing adopts the orphans:
// they go to init, and only the job's cgroup or its environment markers
// can find them (CleanStaleCgroups; a process that scrubbed its
// environment and has no cgroup is out of reach).
func AdoptOrphans() error {
	adopter.once.Do(func() {
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			adopter.err = fmt.Errorf("cannot become a child subreaper (%v): processes that a dead supervisor leaves behind go to init", err)
			return
		}
		sid, err := unix.Getsid(0)
		if err != nil {
			adopter.err = fmt.Errorf("cannot read this process's session (%v): orphans of dead supervisors are not reaped", err)
			return
		}
		adopter.self, adopter.sid = os.Getpid(), sid
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, syscall.SIGCHLD)
		adopter.on.Store(true)
		go adoptLoop(sigs)
	})
	return adopter.err
}

// adoptLoop sweeps on every SIGCHLD and, while orphans are left, on a
// timer. It runs for the life of the process.
func adoptLoop(sigs <-chan os.Signal) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var pendingSince time.Time
	for {
		select {
		case <-sigs:
		case <-timer.C:
		}
		if sweepOrphans() == 0 {
			pendingSince = time.Time{}
			timer.Stop()
			continue
		}
		now := time.Now()
		if pendingSince.IsZero() {
			pendingSince = now
		}
		every := orphanTick
		if now.Sub(pendingSince) > orphanFast {
			every = orphanSlow
		}
		timer.Reset(every)
	}
}

// settleOrphans sweeps until a sweep finds no orphan or the deadline
// passes. It returns how many orphans were reaped meanwhile (by any
// sweep) and whether none is left. Without AdoptOrphans it does nothing
// and returns 0, false.
func settleOrphans(deadline time.Time) (ended int, clean bool) {
	if !adopter.on.Load() {
		return 0, false
	}
	before := adopter.ended.Load()
	for {
		if sweepOrphans() == 0 {
			return int(adopter.ended.Load() - before), true
		}
		if time.Now().After(deadline) {
			return int(adopter.ended.Load() - before), false
		}
		time.Sleep(orphanTick)
	}
}

// sweepOrphans handles every orphan now among this process's children
// and returns how many it found (killed and not yet exited, or reaped).
func sweepOrphans() int {
	adopter.mu.Lock()
	defer adopter.mu.Unlock()
	found := 0
	for _, pid := range sys.ChildLister(sys.HasChildrenFiles())(adopter.self) {
		if handleOrphan(pid) {
			found++
		}
	}
	return found
}

// handleOrphan kills and reaps pid if it is an orphan (see AdoptOrphans);
// it reports whether it was one.
func handleOrphan(pid int) bool {
	if st, err := sys.ReadStat(pid); err != nil || !isOrphan(st) {
		return false // cheap check first: most children are supervisors
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return false // reaped meanwhile
	}
	defer unix.Close(fd)
	// Check again now that fd pins one process. If pid was reaped and
	// reused between the two reads, the process behind fd is the old one
	// and the signal below reaches nothing (ESRCH), and waitid waits for
	// nothing (ECHILD): nothing but that process can be hit.
	st, err := sys.ReadStat(pid)
	if err != nil || !isOrphan(st) {
		return false
	}
	if !st.Zombie() {
		_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
	}
	var si unix.Siginfo
	for {
		err = unix.Waitid(unix.P_PIDFD, fd, &si, unix.WEXITED|unix.WNOHANG, nil)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err == nil && sys.ChildInfoOf(&si).Pid != 0 {
		adopter.ended.Add(1)
	}
	return true
}

// isOrphan reports whether st is a child of this process in another
// session: a process of a job's tree that came back to us.
func isOrphan(st sys.Stat) bool {
	return st.PPid == adopter.self && st.Sid != adopter.sid
}

// orphanNote says, for EventLost, what the orphan reaper did after a
// supervisor was lost: it sweeps until no orphan is left (or until
// deadline). It is "" when AdoptOrphans was not called.
func orphanNote(deadline time.Time) string {
	if !adopter.on.Load() {
		return ""
	}
	ended, clean := settleOrphans(deadline)
	switch {
	case !clean:
		return fmt.Sprintf("jobdeck killed %d processes of dead supervisors' trees that came back to it, and some had still not exited after %v", ended, orphanSettle)
	case ended == 1:
		return "jobdeck killed 1 process of a dead supervisor's tree that came back to it"
	}
	return fmt.Sprintf("jobdeck killed %d processes of dead supervisors' trees that came back to it", ended)
}
