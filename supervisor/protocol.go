package supervisor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The wire protocol between jobdeck and a supervisor. Both directions are
// JSON lines (one object, then "\n"):
//
//	jobdeck -> supervisor, on the supervisor's stdin (the control pipe):
//	  {"op":"start", ...startRequest}   exactly once, first
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
//	  {"ev":"empty"}                                                    last
//
// Every event carries "t", the supervisor's clock in Unix nanoseconds.
// Byte strings that may hold any bytes (command, directory, environment)
// travel as []byte (base64 in JSON), so invalid UTF-8 survives unchanged.

// maxRequestBytes bounds one control line: a 1 MiB command and a large
// environment, base64-encoded, fit well.
const maxRequestBytes = 16 << 20

const (
	opStart = "start"
	opStop  = "stop"
	opWinch = "winch"
)

// startRequest is the first control line.
type startRequest struct {
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

// controlRequest is every later control line.
type controlRequest struct {
	Op      string `json:"op"`
	GraceNS int64  `json:"grace_ns"`
}

const (
	evStarted   = "started"
	evFailed    = "failed"
	evExit      = "exit"
	evRemaining = "remaining"
	evSignalled = "signalled"
	evEmpty     = "empty"
	evLimit     = "limit"
)

// Kinds of "failed" events, mapped to the sentinels of StartError.
const (
	failDir     = "dir"
	failShell   = "shell"
	failCommand = "command"
	failOther   = "other"
)

// wireEvent is one event line.
type wireEvent struct {
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

// errLineTooLong reports a control line over maxRequestBytes.
var errLineTooLong = errors.New("control line too long")

// readLine reads one "\n"-terminated line of at most max bytes (without the
// newline). At EOF with a partial line it returns the partial line and nil;
// at EOF with nothing it returns io.EOF.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+1 {
			return nil, errLineTooLong
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

// writeJSONLine encodes v as one line and writes it with a single Write.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %T: %w", v, err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
