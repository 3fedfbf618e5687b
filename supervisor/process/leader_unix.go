//go:build unix

package process

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// startLeader starts the job's leader. ok is false when it could not (the
// "failed" event was sent; code is the exit code).
func (s *sup) startLeader() (code int, ok bool) {
	p, code, ok := s.planLeader()
	if !ok {
		return code, false
	}
	if code, ok := s.spawnLeader(&p); !ok {
		return code, false
	}
	// The leader holds the job's output now: once the tree lets go of it,
	// jobdeck reads EOF (or EIO on the pty).
	s.closeOutput()
	cgroup := ""
	if s.cg != nil {
		s.cg.closeFD()
		cgroup = s.cg.dir
	}
	s.ev.emit(wire.Event{Ev: wire.EvStarted, Pid: s.leaderPid, Cgroup: cgroup, Notes: s.notes})
	return 0, true
}

// leaderPlan is what startLeader works out before it forks: bash, the
// job's directory and environment, and the command file ("" while the
// command travels in the environment).
type leaderPlan struct {
	bash, dir string
	env       []string
	cmdFile   string
}

// planLeader sets up everything the leader needs but the fork: the
// subreaper, the cgroup and its process limit, the private directory and,
// for a long command, the command file. ok is false when the job cannot
// start (the "failed" event was sent; code is the exit code).
func (s *sup) planLeader() (p leaderPlan, code int, ok bool) {
	s.notes = append(s.notes, becomeSubreaper()...)
	p.dir = string(s.req.Dir)
	if err := checkDir(p.dir); err != nil {
		return p, s.fail(wire.FailDir, err.Error(), 1), false
	}
	p.env = jobEnv(&s.req, p.dir)
	bash, err := findBash(p.env, p.dir)
	if err != nil {
		return p, s.fail(wire.FailShell, err.Error(), 1), false
	}
	p.bash = bash
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
		p.env = append(p.env, envNproc+"="+strconv.FormatUint(s.limit.nproc, 10))
	}
	if d, err := privateDir(p.env, s.req.Session, s.req.Job); err == nil {
		s.tmpDir = d
	} else {
		s.notes = append(s.notes, fmt.Sprintf("no private temporary directory (%v): a stop reports the leader's own fate", err))
	}
	if !commandFitsEnv(s.req.Command) {
		f, err := writeCommandFile(s.req.Command, s.tmpDir)
		if err != nil {
			return p, s.fail(wire.FailCommand, err.Error(), 1), false
		}
		p.cmdFile = f
	}
	return p, 0, true
}

// spawnLeader forks the leader as p says, moving the command to a file
// when the environment as a whole is too large and leaving the cgroup
// when the kernel refuses to start the leader in it. ok is false when it
// could not (the "failed" event was sent; code is the exit code).
func (s *sup) spawnLeader(p *leaderPlan) (code int, ok bool) {
	for {
		c := leaderCmd(p.bash, p.dir, p.env, s.req.Command, p.cmdFile, stopMark(s.tmpDir), s.out, s.errf)
		pidfd := -1
		c.SysProcAttr = leaderAttr(s.req.TTY && s.req.Ctty, s.cg, &pidfd)
		err := c.Start()
		if err == nil {
			s.leaderPid = c.Process.Pid
			s.leaderPgid = c.Process.Pid // Setsid: its own session and group
			s.leaderFD = pidfd
			s.leaderKey = sys.Key{Pid: s.leaderPid}
			if st, err := sys.ReadStat(s.leaderPid); err == nil {
				s.leaderKey = st.Key()
			}
			// Only the reaper waits; drop os.Process's own copy of the
			// pidfd (it keeps pidfd above for the group signal).
			_ = c.Process.Release()
			return 0, true
		}
		switch {
		case p.cmdFile == "" && errors.Is(err, syscall.E2BIG):
			// The environment as a whole is over ARG_MAX: move the
			// command out of it.
			f, ferr := writeCommandFile(s.req.Command, s.tmpDir)
			if ferr != nil {
				return s.fail(wire.FailCommand, ferr.Error(), 1), false
			}
			p.cmdFile = f
			continue
		case errors.Is(err, syscall.E2BIG):
			return s.fail(wire.FailCommand, fmt.Sprintf("the job's environment is too large to start a program (%v); remove big variables", err), 1), false
		case s.cg != nil:
			// CLONE_INTO_CGROUP can fail where mkdir worked (delegation
			// rules, "no internal processes"): run without it.
			s.notes = append(s.notes, fmt.Sprintf("could not start the job in its cgroup (%v); stops rely on the subreaper walk", err))
			_ = s.cg.remove(time.Second)
			s.cg = nil
			s.limit.pids = 0
			continue
		case errors.Is(err, syscall.ENOENT), errors.Is(err, syscall.EACCES), errors.Is(err, syscall.ENOEXEC):
			return s.fail(wire.FailShell, fmt.Sprintf("cannot run %s: %v", p.bash, err), 1), false
		}
		return s.fail(wire.FailOther, fmt.Sprintf("start bash: %v", err), 1), false
	}
}

// defaultPath is searched for bash when the job's environment has no PATH
// (the value bash itself falls back to, minus the current directory).
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// jobEnv builds the leader's environment from the start request: the
// request's environment without BASH_ENV and ENV (no startup files) and
// without inherited markers, PWD set to dir, and the job's markers.
func jobEnv(req *wire.StartRequest, dir string) []string {
	drop := map[string]bool{
		"BASH_ENV": true, "ENV": true, "PWD": true,
		wire.EnvSession: true, wire.EnvJob: true, envCommand: true, envCommandFile: true, envStopMark: true, envNproc: true,
		envExecName: true, envExecCommand: true,
	}
	env := make([]string, 0, len(req.Env)+4)
	for _, b := range req.Env {
		kv := string(b)
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" || drop[name] {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"PWD="+dir,
		wire.EnvSession+"="+req.Session,
		wire.EnvJob+"="+strconv.Itoa(req.Job),
	)
}

// findBash looks bash up in the job's PATH, like exec.LookPath does with
// the supervisor's own, except that relative PATH entries are taken
// relative to the job's directory (where the job would resolve them).
func findBash(env []string, dir string) (string, error) {
	path, ok := sys.LookEnv(env, "PATH")
	if !ok {
		path = defaultPath
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		p := filepath.Join(d, "bash")
		st, err := os.Stat(p)
		if err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("bash is not in the job's PATH (%s); install bash or add its directory to PATH", path)
}

// checkDir reports why the leader could not chdir into dir, before trying:
// fork/exec reports a failed chdir like a missing program.
func checkDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("working directory %s does not exist (any more); create it or pick another", dir)
	case err != nil:
		return fmt.Errorf("working directory %s: %v", dir, err)
	case !st.IsDir():
		return fmt.Errorf("working directory %s is not a directory; pick a directory", dir)
	}
	if err := syscall.Access(dir, 1 /* X_OK */); err != nil {
		return fmt.Errorf("working directory %s cannot be entered: %v", dir, err)
	}
	return nil
}
