package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// BackgroundArgs are the arguments of the background tool. Wait, Until
// and Lines mean what they mean for job_status: start and wait in one
// call.
type BackgroundArgs struct {
	Command string   `json:"command" jsonschema:"bash command (stdin /dev/null)"`
	Name    string   `json:"name,omitempty" jsonschema:"label (not a number); id accepts it"`
	Cwd     string   `json:"cwd,omitempty" jsonschema:"directory (default: jobdeck's)"`
	TTY     *bool    `json:"tty,omitempty" jsonschema:"ptys for stdout, stderr (default true)"`
	Wait    *float64 `json:"wait,omitempty" jsonschema:"seconds to wait for the end or, with until, a match"`
	Until   string   `json:"until,omitempty" jsonschema:"regex: a matching line ends the wait"`
	Lines   *int     `json:"lines,omitempty" jsonschema:"newest N lines (default 50)"`
}

// StatusArgs are the arguments of the job_status tool. Pointer fields are
// nil when the argument was not given (or given as null).
type StatusArgs struct {
	ID       Selector `json:"id,omitzero" jsonschema:"job ID or name"`
	Lines    *int     `json:"lines,omitempty" jsonschema:"newest N lines (default 50); with grep, matches"`
	Head     *int     `json:"head,omitempty" jsonschema:"oldest N lines instead"`
	Since    *uint64  `json:"since,omitempty" jsonschema:"a seq: only lines after it"`
	Wait     *float64 `json:"wait,omitempty" jsonschema:"seconds to wait for the end or, with until, a match"`
	Until    string   `json:"until,omitempty" jsonschema:"regex: a matching line ends the wait"`
	Grep     string   `json:"grep,omitempty" jsonschema:"regex: only matching lines"`
	Context  *int     `json:"context,omitempty" jsonschema:"lines around each grep match"`
	MaxBytes *int     `json:"max_bytes,omitempty" jsonschema:"bytes of text (default 16384)"`
}

// KillArgs are the arguments of the job_kill tool.
type KillArgs struct {
	ID    Selector `json:"id" jsonschema:"job ID or name"`
	Grace *float64 `json:"grace,omitempty" jsonschema:"seconds from SIGTERM to SIGKILL"`
	// Restart starts the same command again once the tree is gone
	// (serve/restart.go).
	Restart bool `json:"restart,omitempty" jsonschema:"then start it again (same name, cwd, env)"`
}

// Selector is a job selector given as a tool argument: a JSON number (the
// job ID, a whole number ≥ 0) or a JSON string (an ID in decimal, or a
// case-insensitive name). Its schema is
// {"anyOf":[{"type":"integer","minimum":0},{"type":"string","minLength":1}]}.
type Selector struct {
	// Text is the selector as the jobs core takes it ("2", "web").
	Text string
	// Given reports that the argument was present and not null.
	Given bool
}

// errBadSelector is what a selector that is neither a whole number nor a
// string unmarshals to.
var errBadSelector = errors.New("id must be a job ID (a whole number such as 2) or a job name (a string such as \"web\")")

// UnmarshalJSON accepts a JSON number that is a whole number ≥ 0, a JSON
// string, or null (not given). Anything else fails with a message that
// says which shapes are accepted.
func (s *Selector) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*s = Selector{}
		return nil
	case len(b) > 0 && b[0] == '"':
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return errBadSelector
		}
		*s = Selector{Text: strings.TrimSpace(str), Given: true}
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		return errBadSelector
	}
	*s = Selector{Text: strconv.FormatInt(int64(f), 10), Given: true}
	return nil
}

// MarshalJSON writes the selector as a JSON string, or null when not given.
func (s Selector) MarshalJSON() ([]byte, error) {
	if !s.Given {
		return []byte("null"), nil
	}
	return json.Marshal(s.Text)
}

// IsZero reports whether the selector was not given (for omitzero).
func (s Selector) IsZero() bool { return !s.Given }

// checkSelector returns the selector text or an error naming the tool.
func checkSelector(tool string, s Selector) (string, error) {
	if !s.Given {
		return "", fmt.Errorf("%s needs id: the job ID or name, e.g. {\"id\":2}; job_status without id lists every job", tool)
	}
	if s.Text == "" {
		return "", fmt.Errorf("id is empty: give the job ID (e.g. 2) or name; job_status without id lists every job")
	}
	return s.Text, nil
}
