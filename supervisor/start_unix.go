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

	"github.com/creack/pty"
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

	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		return nil, startErr(ErrSupervisor, fmt.Sprintf("create the control pipe: %v", err))
	}
	owned.add(ctlR, ctlW)
	evR, evW, err := os.Pipe()
	if err != nil {
		return nil, startErr(ErrSupervisor, fmt.Sprintf("create the event pipe: %v", err))
	}
	owned.add(evR, evW)
	var notes []string
	var outR, outW *os.File
	if c.TTY {
		outR, outW, err = pty.Open()
		if err != nil {
			return nil, startErr(ErrSupervisor, fmt.Sprintf("open a pty for the job's output: %v (set TTY off to use a pipe)", err))
		}
		owned.add(outR, outW)
		if err := pty.Setsize(outR, &pty.Winsize{Rows: uint16(c.Rows), Cols: uint16(c.Cols)}); err != nil {
			notes = append(notes, fmt.Sprintf("could not size the pty to %d×%d: %v", c.Rows, c.Cols, err))
		}
		if err := rawOutput(outW); err != nil {
			notes = append(notes, fmt.Sprintf("pty output stays cooked (\\n becomes \\r\\n): %v", err))
		}
		if p, err := pollable(outR); err == nil && p != outR {
			owned.remove(outR)
			outR = p
			owned.add(outR)
		}
	} else {
		outR, outW, err = os.Pipe()
		if err != nil {
			return nil, startErr(ErrSupervisor, fmt.Sprintf("create the stdout pipe: %v", err))
		}
		owned.add(outR, outW)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, startErr(ErrSupervisor, fmt.Sprintf("create the stderr pipe: %v", err))
	}
	owned.add(errR, errW)

	cmd := exec.Command(c.Exe)
	cmd.Args = append([]string{filepath.Base(os.Args[0])}, c.Args...)
	cmd.Stdin = ctlR
	cmd.Env = supervisorEnv()
	cmd.Stdout, cmd.Stderr = nil, nil // /dev/null: the supervisor never writes to jobdeck's terminal
	cmd.ExtraFiles = []*os.File{evW, outW, errW}
	// Its own process group: Ctrl-C, Ctrl-\ and job-control signals of
	// jobdeck's terminal go to the foreground group and never reach it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pidfd := -1
	supervisorPidfd(cmd.SysProcAttr, &pidfd)
	if err := cmd.Start(); err != nil {
		return nil, startErr(ErrSupervisor, fmt.Sprintf("start the supervisor %s: %v", c.Exe, err))
	}
	proc := cmd.Process
	waiter := newExitWaiter(proc, pidfd)
	tmpBase := privateBase(c.Env)
	// jobdeck's copies of the child ends: EOF on evR / outR / errR must
	// mean that the supervisor and the job are gone.
	for _, f := range []*os.File{ctlR, evW, outW, errW} {
		f.Close()
		owned.remove(f)
	}

	req := startRequest{
		Op:       opStart,
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
	deadline := time.Now().Add(startTimeout)
	_ = ctlW.SetWriteDeadline(deadline)
	werr := writeJSONLine(ctlW, req)
	_ = ctlW.SetWriteDeadline(time.Time{})

	dec := json.NewDecoder(evR)
	var first wireEvent
	_ = evR.SetReadDeadline(deadline)
	derr := dec.Decode(&first)
	_ = evR.SetReadDeadline(time.Time{})

	if derr == nil && first.Ev == evStarted {
		owned.remove(ctlW, evR, outR, errR)
		h := &Handle{
			proc:    proc,
			supPid:  proc.Pid,
			waiter:  waiter,
			tmpBase: tmpBase,
			stdout:  outR,
			stderr:  errR,
			tty:     c.TTY,
			events:  make(chan Event, eventBuffer),
			pid:     first.Pid,
			cgroup:  first.Cgroup,
			session: c.Session,
			job:     c.Job,
			notes:   append(notes, first.Notes...),
			ctl:     ctlW,
		}
		go h.readEvents(dec, evR)
		return h, nil
	}

	// The job did not start. Make sure nothing is left, then say why.
	ctlW.Close()
	owned.remove(ctlW)
	if derr == nil && first.Ev == evFailed {
		waitBounded(waiter, proc, 5*time.Second)
		return nil, startErr(failSentinel(first.Kind), first.Reason)
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
	return nil, startErr(ErrSupervisor, why+"; check that "+c.Exe+" is a jobdeck binary that handles "+Arg)
}

// failSentinel maps a "failed" event's kind to a StartError sentinel.
func failSentinel(kind string) error {
	switch kind {
	case failDir:
		return ErrBadDir
	case failShell:
		return ErrNoShell
	case failCommand:
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

// readEvents decodes event lines into h.events until EOF, then reaps the
// supervisor and, when it never reported an empty tree, cleans up after it
// and sends EventLost. It closes h.events last.
func (h *Handle) readEvents(dec *json.Decoder, evR *os.File) {
	defer close(h.events)
	var decodeErr error
	for {
		var w wireEvent
		if err := dec.Decode(&w); err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
				decodeErr = err
			}
			break
		}
		ev, ok := w.toEvent()
		if !ok {
			continue
		}
		if ev.Kind == EventEmpty {
			h.empty.Store(true)
		}
		h.events <- ev
	}
	evR.Close()
	state, werr := h.waiter.wait()
	// Nobody reads the control pipe any more: release it even when the
	// caller never calls Close.
	h.ctlMu.Lock()
	if h.ctl != nil {
		h.ctl.Close()
		h.ctl = nil
	}
	h.ctlMu.Unlock()
	if h.empty.Load() {
		return
	}
	why := "the supervisor exited without reporting an empty tree"
	switch {
	case werr != nil:
		why += fmt.Sprintf(" (wait: %v)", werr)
	case state != "":
		why += " (" + state + ")"
	}
	if decodeErr != nil {
		why += fmt.Sprintf("; its events were unreadable: %v", decodeErr)
	}
	why += "; " + cleanupLost(h.session, h.job, h.cgroup)
	// The supervisor removes the job's private directory when the tree is
	// empty; it did not get there.
	removePrivateDirs(h.tmpBase, h.session, h.job)
	h.events <- Event{Kind: EventLost, Time: time.Now(), Err: why}
}

// toEvent converts an event line; ok is false for lines that are not
// events of a running job.
func (w wireEvent) toEvent() (Event, bool) {
	ev := Event{Time: time.Unix(0, w.T)}
	if w.T == 0 {
		ev.Time = time.Now()
	}
	switch w.Ev {
	case evExit:
		ev.Kind = EventExit
		ev.Exit.Code, ev.Exit.Signal, ev.Exit.Core = w.Code, w.Signal, w.Core
		ev.Remaining = w.Remaining
	case evRemaining:
		ev.Kind = EventRemaining
		ev.Remaining = w.Remaining
	case evSignalled:
		ev.Kind = EventSignalled
		ev.Signal, ev.Count = w.Signal, w.Count
	case evEmpty:
		ev.Kind = EventEmpty
	case evLimit:
		ev.Kind = EventLimit
		ev.Note = w.Reason
	default:
		return ev, false
	}
	return ev, true
}

// Stop asks for the stop sequence with the given grace (zero or negative:
// SIGKILL at once, without SIGTERM). It returns at once; progress arrives as
// events. Asking again with a shorter grace shortens the running stop; a
// longer one changes nothing. Stop after EventEmpty returns nil; after Close
// it returns ErrClosed; when the supervisor is gone it returns an error
// wrapping ErrGone.
func (h *Handle) Stop(grace time.Duration) error {
	if grace < 0 {
		grace = 0
	}
	return h.control(controlRequest{Op: opStop, GraceNS: int64(grace)})
}

// Close closes the control pipe: the supervisor stops the tree with
// Config.Grace and exits. Events still arrive until the channel closes.
// Close does not close Stdout or Stderr (the caller does, after EOF). It is
// idempotent and returns nil.
func (h *Handle) Close() error {
	h.ctlMu.Lock()
	defer h.ctlMu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	if h.ctl != nil {
		h.ctl.Close()
		h.ctl = nil
	}
	return nil
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
