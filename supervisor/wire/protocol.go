// Package wire is the protocol between jobdeck and one supervisor process,
// and the names both sides derive from a job (its markers, its cgroup, its
// private directory). Package supervisor (jobdeck's side) and package
// supervisor/process (the supervisor itself) both import it; it imports
// nothing of the project.
//
// Both directions are JSON lines (one object, then "\n"):
//
//	jobdeck -> supervisor, on the supervisor's stdin (the control pipe):
//	  {"op":"start", ...StartRequest}   exactly once, first
//	  {"op":"stop","grace_ns":N}        any number of times
//	  {"op":"winch"}                    the pty was resized: SIGWINCH to the job
//	  EOF                               jobdeck is gone: stop with the start grace
//
//	supervisor -> jobdeck, on the supervisor's fd 3 (the event pipe):
//	  {"ev":"started","pid":P,"cgroup":"/sys/fs/cgroup/…","notes":[…]}  or
//	  {"ev":"failed","reason":"…","kind":"dir|shell|command|other"}     first, exactly once
//	  {"ev":"exit","code":C,"signal":S,"core":B,"remaining":N}
//	  {"ev":"remaining","remaining":N}
//	  {"ev":"signalled","signal":S,"count":N}
//	  {"ev":"limit","reason":"…"}                                       at most once
//	  {"ev":"oom","count":N}                                            at most once, before empty
//	  {"ev":"empty"}                                                    last
//
// Every event carries "t", the supervisor's clock in Unix nanoseconds.
// Byte strings that may hold any bytes (command, directory, environment)
// travel as []byte (base64 in JSON), so invalid UTF-8 survives unchanged.
//
// The supervisor also has the job's stdout (a pty slave or a pipe) on fd 4
// and its stderr (a second pty's slave or a pipe) on fd 5 until the
// leader holds them.
package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxRequestBytes bounds one control line: a 1 MiB command and a large
// environment, base64-encoded, fit well.
const MaxRequestBytes = 16 << 20

// Ops: the "op" of a control line.
const (
	OpStart = "start" // the first line: a StartRequest
	OpStop  = "stop"  // a ControlRequest with GraceNS
	OpWinch = "winch" // the pty was resized: SIGWINCH to the leader's group
)

// StartRequest is the first control line: everything the supervisor needs
// to start the job. Grace is in nanoseconds: zero means DefaultGrace,
// negative none (SIGKILL at once).
type StartRequest struct {
	Op       string   `json:"op"`
	Command  []byte   `json:"command"`
	Dir      []byte   `json:"dir"`
	Env      [][]byte `json:"env"`
	TTY      bool     `json:"tty"`
	Ctty     bool     `json:"ctty"`
	GraceNS  int64    `json:"grace_ns"`
	Session  string   `json:"session"`
	Job      int      `json:"job"`
	NoCgroup bool     `json:"no_cgroup"`
}

// ControlRequest is every later control line: OpStop with its grace in
// nanoseconds (zero: SIGKILL at once), or OpWinch.
type ControlRequest struct {
	Op      string `json:"op"`
	GraceNS int64  `json:"grace_ns"`
}

// Evs: the "ev" of an event line, in the order they can come.
const (
	EvStarted   = "started"   // the leader runs: Pid, Cgroup, Notes
	EvFailed    = "failed"    // the job did not start: Kind, Reason
	EvExit      = "exit"      // the leader exited: Code or Signal and Core, Remaining
	EvRemaining = "remaining" // the count of other live processes changed: Remaining
	EvSignalled = "signalled" // a stop signalled Count processes with Signal
	EvLimit     = "limit"     // the job was seen at its process limit: Reason
	EvOOM       = "oom"       // the kernel's OOM killer killed Count processes of the job's cgroup
	EvEmpty     = "empty"     // the tree is empty; the last event
)

// Kinds of EvFailed: what was wrong, so that jobdeck can say which of its
// errors it is.
const (
	FailDir     = "dir"     // the working directory cannot be entered
	FailShell   = "shell"   // bash cannot be found or run
	FailCommand = "command" // the command cannot be passed to bash
	FailOther   = "other"   // anything else (a protocol error, a failed fork)
)

// Event is one event line. Which fields are set depends on Ev (see the
// Ev constants); T is the supervisor's clock in Unix nanoseconds.
type Event struct {
	Ev        string   `json:"ev"`
	T         int64    `json:"t"`
	Pid       int      `json:"pid,omitempty"`
	Cgroup    string   `json:"cgroup,omitempty"`
	Notes     []string `json:"notes,omitempty"`
	Reason    string   `json:"reason,omitempty"`
	Kind      string   `json:"kind,omitempty"`
	Code      int      `json:"code,omitempty"`
	Signal    int      `json:"signal,omitempty"`
	Core      bool     `json:"core,omitempty"`
	Remaining int      `json:"remaining,omitempty"`
	Count     int      `json:"count,omitempty"`
}

// ErrLineTooLong is ReadLine's error for a line over its bound.
var ErrLineTooLong = errors.New("control line too long")

// ReadLine reads one "\n"-terminated line of at most max bytes (without the
// newline). At EOF with a partial line it returns the partial line and nil;
// at EOF with nothing it returns io.EOF; a longer line is ErrLineTooLong.
func ReadLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			return nil, ErrLineTooLong
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return bytes.TrimSuffix(line, []byte("\n")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}

// WriteLine encodes v as one JSON line and writes it with a single Write,
// so that a line is never interleaved with another writer's.
func WriteLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %T: %w", v, err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
