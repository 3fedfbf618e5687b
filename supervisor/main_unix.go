//go:build unix

package supervisor

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Main is the supervisor process's main function; it returns the exit code
// (0 after an empty tree, 1 when the job could not start, 2 on a protocol
// error). It expects the control pipe on stdin, the event pipe on fd 3 and
// the job's stdout and stderr on fds 4 and 5, as Start arranges.
func Main() int {
	Hygiene()
	SetProcessName(filepath.Base(os.Args[0]))
	// Pdeathsig (the leader's SIGKILL when the supervisor dies) fires when
	// the *thread* that forked the leader exits, not the process
	// (prctl(2), golang/go#27505). The leader is started from this
	// goroutine, locked to its thread for the whole life of the process,
	// so that thread only goes away with the supervisor.
	runtime.LockOSThread()

	evf := os.NewFile(3, "events")
	if evf == nil {
		return 2
	}
	ev := newEmitter(evf)
	code := runSupervisor(ev)
	ev.close(2 * time.Second)
	return code
}

// runSupervisor reads the start request, starts the job and runs it until
// its tree is empty.
func runSupervisor(ev *emitter) int {
	// SIGTERM, SIGINT or SIGHUP to the supervisor itself means the same as
	// EOF on the control pipe: stop the tree with the start grace.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	ctl := readControl(os.Stdin)
	out, errf := os.NewFile(4, "job-stdout"), os.NewFile(5, "job-stderr")

	s := &sup{ev: ev, self: os.Getpid(), out: out, errf: errf, leaderFD: -1, reported: -1,
		termed: map[procKey]bool{}, killed: map[procKey]bool{}}
	var line []byte
	select {
	case l, ok := <-ctl:
		if !ok {
			return s.fail(failOther, "no start request: jobdeck closed the control pipe first", 2)
		}
		line = l
	case sig := <-sigs:
		return s.fail(failOther, "stopped by "+sig.String()+" before the start request", 2)
	}
	if err := json.Unmarshal(line, &s.req); err != nil || s.req.Op != opStart {
		return s.fail(failOther, fmt.Sprintf("bad start request (%v); jobdeck and its supervisor binary do not match", err), 2)
	}
	if out == nil || errf == nil {
		return s.fail(failOther, "the supervisor was started without the job's output on fds 4 and 5", 2)
	}
	s.grace = time.Duration(s.req.GraceNS)
	switch {
	case s.grace < 0:
		s.grace = 0 // no grace: SIGKILL at once
	case s.grace == 0:
		s.grace = DefaultGrace
	}
	if code, ok := s.startLeader(); !ok {
		return code
	}
	return s.loop(ctl, sigs)
}

// readControl delivers control lines until EOF (or an unreadable line),
// then closes the channel.
func readControl(f *os.File) <-chan []byte {
	ch := make(chan []byte, 16)
	go func() {
		defer close(ch)
		r := bufio.NewReaderSize(f, 64<<10)
		for {
			line, err := readLine(r, maxRequestBytes)
			if err != nil {
				return
			}
			ch <- line
		}
	}()
	return ch
}

// sup is the supervisor's state. Everything but the fields under reapMu is
// owned by the main goroutine.
type sup struct {
	req   startRequest
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
	leaderKey    procKey
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
	termed     map[procKey]bool // got SIGTERM (each at most once)
	killed     map[procKey]bool // got SIGKILL from a sweep
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
	s.ev.emit(wireEvent{Ev: evFailed, Kind: kind, Reason: reason})
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

// startLeader starts the job's leader. ok is false when it could not (the
// "failed" event was sent; code is the exit code).
func (s *sup) startLeader() (code int, ok bool) {
	s.notes = append(s.notes, becomeSubreaper()...)
	dir := string(s.req.Dir)
	if err := checkDir(dir); err != nil {
		return s.fail(failDir, err.Error(), 1), false
	}
	env := jobEnv(&s.req, dir)
	bash, err := findBash(env, dir)
	if err != nil {
		return s.fail(failShell, err.Error(), 1), false
	}
	if !s.req.NoCgroup {
		cg, err := makeCgroup(s.req.Session, s.req.Job)
		if err != nil {
			s.notes = append(s.notes, fmt.Sprintf("no cgroup v2 for the job (%v); stops rely on the subreaper walk", err))
		}
		s.cg = cg
	}
	s.limit = newProcLimit()
	if s.cg != nil {
		s.limit.pids = s.cg.setPidsMax(s.limit)
	}
	if s.limit.nproc > 0 {
		env = append(env, envNproc+"="+strconv.FormatUint(s.limit.nproc, 10))
	}
	if d, err := privateDir(env, s.req.Session, s.req.Job); err == nil {
		s.tmpDir = d
	} else {
		s.notes = append(s.notes, fmt.Sprintf("no private temporary directory (%v): a stop reports the leader's own fate", err))
	}
	cmdFile := ""
	if !commandFitsEnv(s.req.Command) {
		f, err := writeCommandFile(s.req.Command, s.tmpDir)
		if err != nil {
			return s.fail(failCommand, err.Error(), 1), false
		}
		cmdFile = f
	}
	for {
		c := leaderCmd(bash, dir, env, s.req.Command, cmdFile, stopMark(s.tmpDir), s.out, s.errf)
		pidfd := -1
		c.SysProcAttr = leaderAttr(s.req.TTY && s.req.Ctty, s.cg, &pidfd)
		err := c.Start()
		if err == nil {
			s.leaderPid = c.Process.Pid
			s.leaderPgid = c.Process.Pid // Setsid: its own session and group
			s.leaderFD = pidfd
			s.leaderKey = procKey{pid: s.leaderPid}
			if st, err := readStat(s.leaderPid); err == nil {
				s.leaderKey = st.key()
			}
			// Only the reaper waits; drop os.Process's own copy of the
			// pidfd (it keeps pidfd above for the group signal).
			_ = c.Process.Release()
			break
		}
		switch {
		case cmdFile == "" && errors.Is(err, syscall.E2BIG):
			// The environment as a whole is over ARG_MAX: move the
			// command out of it.
			f, ferr := writeCommandFile(s.req.Command, s.tmpDir)
			if ferr != nil {
				return s.fail(failCommand, ferr.Error(), 1), false
			}
			cmdFile = f
			continue
		case errors.Is(err, syscall.E2BIG):
			return s.fail(failCommand, fmt.Sprintf("the job's environment is too large to start a program (%v); remove big variables", err), 1), false
		case s.cg != nil:
			// CLONE_INTO_CGROUP can fail where mkdir worked (delegation
			// rules, "no internal processes"): run without it.
			s.notes = append(s.notes, fmt.Sprintf("could not start the job in its cgroup (%v); stops rely on the subreaper walk", err))
			_ = s.cg.remove(time.Second)
			s.cg = nil
			s.limit.pids = 0
			continue
		case errors.Is(err, syscall.ENOENT), errors.Is(err, syscall.EACCES), errors.Is(err, syscall.ENOEXEC):
			return s.fail(failShell, fmt.Sprintf("cannot run %s: %v", bash, err), 1), false
		}
		return s.fail(failOther, fmt.Sprintf("start bash: %v", err), 1), false
	}
	// The leader holds the job's output now: once the tree lets go of it,
	// jobdeck reads EOF (or EIO on the pty).
	s.closeOutput()
	cgroup := ""
	if s.cg != nil {
		s.cg.closeFD()
		cgroup = s.cg.dir
	}
	s.ev.emit(wireEvent{Ev: evStarted, Pid: s.leaderPid, Cgroup: cgroup, Notes: s.notes})
	return 0, true
}
