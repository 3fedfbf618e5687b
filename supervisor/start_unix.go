//go:build unix

package supervisor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// startTimeout bounds how long Start waits for the supervisor to take the
// start request and report "started" or "failed".
const startTimeout = 10 * time.Second

// eventBuffer is the capacity of Handle.Events.
const eventBuffer = 64

// Start starts a supervisor for cfg and returns once the leader runs (or
// with a *StartError once it is known that it cannot). The caller must read
// Stdout and Stderr until EOF (a pty's EIO counts as EOF) and drain Events
// until it is closed.
//
// The supervisor is cfg.Exe (default /proc/self/exe) with cfg.Args (default
// Arg) in a process group of its own, with stdin = the control pipe, fd 3 =
// the event pipe, fd 4 = the job's stdout (pty slave or pipe), fd 5 = the
// job's stderr pipe, and stdout/stderr on /dev/null. The command travels
// only over the control pipe.
func Start(cfg Config) (*Handle, error) {
	c, err := normalize(cfg)
	if err != nil {
		return nil, err
	}
	var owned fileSet // every fd this function opened, closed on failure
	defer owned.closeAll()
	f, err := openFiles(c, &owned)
	if err != nil {
		return nil, err
	}
	proc, waiter, err := spawnSupervisor(c, f)
	if err != nil {
		return nil, err
	}
	// jobdeck's copies of the child ends: EOF on evR / outR / errR must
	// mean that the supervisor and the job are gone.
	for _, x := range []*os.File{f.ctlR, f.evW, f.outW, f.errW} {
		x.Close()
		owned.remove(x)
	}
	tmpBase := sys.PrivateBase(c.Env)
	deadline := time.Now().Add(startTimeout)
	werr := sendStart(f.ctlW, c, deadline)
	dec := json.NewDecoder(f.evR)
	var first wire.Event
	_ = f.evR.SetReadDeadline(deadline)
	derr := dec.Decode(&first)
	_ = f.evR.SetReadDeadline(time.Time{})

	if derr == nil && first.Ev == wire.EvStarted {
		owned.remove(f.ctlW, f.evR, f.outR, f.errR)
		h := &Handle{
			proc:    proc,
			supPid:  proc.Pid,
			waiter:  waiter,
			tmpBase: tmpBase,
			stdout:  f.outR,
			stderr:  f.errR,
			tty:     c.TTY,
			errTTY:  f.errTTY,
			events:  make(chan Event, eventBuffer),
			pid:     first.Pid,
			cgroup:  first.Cgroup,
			session: c.Session,
			job:     c.Job,
			notes:   append(f.notes, first.Notes...),
			ctl:     f.ctlW,
		}
		go h.readEvents(dec, f.evR)
		return h, nil
	}
	// The job did not start. Make sure nothing is left, then say why.
	f.ctlW.Close()
	owned.remove(f.ctlW)
	return nil, startFailed(c, proc, waiter, tmpBase, first, derr, werr)
}

// jobFiles are the descriptors Start opens for one job, each pipe as
// jobdeck's end and the supervisor's.
type jobFiles struct {
	ctlR, ctlW *os.File // the control pipe: the supervisor reads ctlR
	evR, evW   *os.File // the event pipe: the supervisor writes evW
	outR, outW *os.File // the job's stdout: a pty's master and slave, or a pipe
	errR, errW *os.File // the job's stderr: a second pty's master and slave, or a pipe
	errTTY     bool     // errR is a pty master
	notes      []string // what could not be set up on the ptys
}

// openFiles opens the pipes and the pty of a job, adding each to owned.
func openFiles(c Config, owned *fileSet) (*jobFiles, error) {
	var f jobFiles
	var err error
	if f.ctlR, f.ctlW, err = os.Pipe(); err != nil {
		return nil, startErr(ErrSupervisor, startFailure("create the control pipe", err, ""))
	}
	owned.add(f.ctlR, f.ctlW)
	if f.evR, f.evW, err = os.Pipe(); err != nil {
		return nil, startErr(ErrSupervisor, startFailure("create the event pipe", err, ""))
	}
	owned.add(f.evR, f.evW)
	if c.TTY {
		f.outR, f.outW, f.notes, err = openPty(c.Rows, c.Cols, owned)
		if err != nil {
			return nil, startErr(ErrSupervisor, startFailure("open a pty for the job's output", err, "set TTY off to use a pipe"))
		}
	} else {
		if f.outR, f.outW, err = outputPipe(owned); err != nil {
			return nil, startErr(ErrSupervisor, startFailure("create the stdout pipe", err, ""))
		}
	}
	if c.TTY {
		var notes []string
		f.errR, f.errW, notes, err = openPty(c.Rows, c.Cols, owned)
		if err == nil {
			f.errTTY = true
			f.notes = append(f.notes, notes...)
		} else {
			// Out of ptys (or none to be had): the job runs all the same,
			// with stderr on a pipe, as it runs without a cgroup.
			f.notes = append(f.notes, "stderr is a pipe, not a terminal: "+startFailure("no second pty", err, ""))
		}
	}
	if !f.errTTY {
		if f.errR, f.errW, err = outputPipe(owned); err != nil {
			return nil, startErr(ErrSupervisor, startFailure("create the stderr pipe", err, ""))
		}
	}
	return &f, nil
}

// outputPipe makes a pipe for a job's stdout or stderr, its read end the
// file Handle gives out (readEnd); both ends are added to owned.
func outputPipe(owned *fileSet) (r, w *os.File, err error) {
	if r, w, err = os.Pipe(); err != nil {
		return nil, nil, err
	}
	if e, err := readEnd(r); err == nil {
		r = e
	}
	owned.add(r, w)
	return r, w, nil
}

// spawnSupervisor starts the supervisor process on the child ends of f.
func spawnSupervisor(c Config, f *jobFiles) (*os.Process, *exitWaiter, error) {
	cmd := exec.Command(c.Exe)
	cmd.Args = append([]string{filepath.Base(os.Args[0])}, c.Args...)
	cmd.Stdin = f.ctlR
	cmd.Env = supervisorEnv()
	cmd.Stdout, cmd.Stderr = nil, nil // /dev/null: the supervisor never writes to jobdeck's terminal
	cmd.ExtraFiles = []*os.File{f.evW, f.outW, f.errW}
	// Its own process group: Ctrl-C, Ctrl-\ and job-control signals of
	// jobdeck's terminal go to the foreground group and never reach it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pidfd := -1
	supervisorPidfd(cmd.SysProcAttr, &pidfd)
	if err := cmd.Start(); err != nil {
		return nil, nil, startErr(ErrSupervisor, startFailure("start the supervisor "+c.Exe, err, ""))
	}
	return cmd.Process, newExitWaiter(cmd.Process, pidfd), nil
}

// sendStart writes the start request on the control pipe, giving up at
// deadline.
func sendStart(ctlW *os.File, c Config, deadline time.Time) error {
	req := wire.StartRequest{
		Op:       wire.OpStart,
		Command:  []byte(c.Command),
		Dir:      []byte(c.Dir),
		Env:      make([][]byte, len(c.Env)),
		TTY:      c.TTY,
		Ctty:     c.TTY && c.Ctty,
		GraceNS:  int64(c.Grace),
		Session:  c.Session,
		Job:      c.Job,
		NoCgroup: c.NoCgroup,
	}
	for i, kv := range c.Env {
		req.Env[i] = []byte(kv)
	}
	_ = ctlW.SetWriteDeadline(deadline)
	err := wire.WriteLine(ctlW, req)
	_ = ctlW.SetWriteDeadline(time.Time{})
	return err
}

// startFailed reaps a supervisor that did not report "started", cleans up
// whatever of the job it may have left, and says why as a *StartError:
// first is its first event (when derr is nil), werr the error of sending
// the start request.
func startFailed(c Config, proc *os.Process, waiter *exitWaiter, tmpBase string, first wire.Event, derr, werr error) error {
	if derr == nil && first.Ev == wire.EvFailed {
		waitBounded(waiter, proc, 5*time.Second)
		return startErr(failSentinel(first.Kind), first.Reason)
	}
	_ = proc.Kill() // pidfd-backed: cannot hit a recycled pid
	state, _ := waiter.wait()
	what := cleanupLost(c.Session, c.Job, guessCgroup(c.Session, c.Job))
	removePrivateDirs(tmpBase, c.Session, c.Job)
	var why string
	switch {
	case derr == nil:
		why = fmt.Sprintf("the supervisor answered %q instead of \"started\"", first.Ev)
	case errors.Is(derr, os.ErrDeadlineExceeded):
		why = fmt.Sprintf("the supervisor did not answer within %v", startTimeout)
	case errors.Is(derr, io.EOF):
		why = "the supervisor exited before starting the job"
		if werr != nil {
			why += fmt.Sprintf(" (sending the start request: %v)", werr)
		}
	default:
		why = fmt.Sprintf("reading the supervisor's first event: %v", derr)
	}
	if state != "" {
		why += " (" + state + ")"
	}
	if what != "" {
		why += "; " + what
	}
	return startErr(ErrSupervisor, why+"; check that "+c.Exe+" is a jobdeck binary that handles "+Arg)
}

// failSentinel maps a "failed" event's kind to a StartError sentinel.
func failSentinel(kind string) error {
	switch kind {
	case wire.FailDir:
		return ErrBadDir
	case wire.FailShell:
		return ErrNoShell
	case wire.FailCommand:
		return ErrBadCommand
	}
	return ErrSupervisor
}

// waitBounded reaps the supervisor, killing it first if it has not exited
// within d.
func waitBounded(w *exitWaiter, p *os.Process, d time.Duration) {
	t := time.AfterFunc(d, func() { _ = p.Kill() })
	_, _ = w.wait()
	t.Stop()
}

// fileSet tracks open files so that every failure path closes them.
type fileSet struct{ files []*os.File }

func (s *fileSet) add(fs ...*os.File) { s.files = append(s.files, fs...) }

func (s *fileSet) remove(fs ...*os.File) {
	for _, f := range fs {
		for i, g := range s.files {
			if g == f {
				s.files = append(s.files[:i], s.files[i+1:]...)
				break
			}
		}
	}
}

func (s *fileSet) closeAll() {
	for _, f := range s.files {
		f.Close()
	}
	s.files = nil
}
