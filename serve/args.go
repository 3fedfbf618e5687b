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

// BackgroundArgs are the arguments of the background tool.
type BackgroundArgs struct {
	Command string `json:"command" jsonschema:"shell command line, run by bash in the background with stdin from /dev/null; up to 1 MiB"`
	Name    string `json:"name,omitempty" jsonschema:"optional label; job_status and job_kill accept it as id (case-insensitive); not a number"`
	Cwd     string `json:"cwd,omitempty" jsonschema:"working directory; default: the directory jobdeck was started in"`
	TTY     *bool  `json:"tty,omitempty" jsonschema:"stdout on a pseudo-terminal (default true: line-buffered output and colours, as in a shell); false uses plain pipes, faster for huge output"`
}

// StatusArgs are the arguments of the job_status tool. Pointer fields are
// nil when the argument was not given (or given as null).
type StatusArgs struct {
	ID    Selector `json:"id,omitzero" jsonschema:"job ID (a number, or the same as a string) or the job's name; omit to list every job"`
	Lines *int     `json:"lines,omitempty" jsonschema:"how many lines: the newest ones, or with since the oldest ones after it; 1-2000, default 50"`
	Since *uint64  `json:"since,omitempty" jsonschema:"cursor: only lines with a seq after it, oldest first; pass the next value of the previous result"`
	Wait  *float64 `json:"wait,omitempty" jsonschema:"seconds to wait first (0-600, fractions allowed): until the job ends or, with until, a new line matches"`
	Until string   `json:"until,omitempty" jsonschema:"regular expression (Go RE2 syntax) that ends the wait when an output line you have not been shown yet matches (with since: a line after since), e.g. \"ready|listening on\"; needs wait"`
}

// KillArgs are the arguments of the job_kill tool.
type KillArgs struct {
	ID    Selector `json:"id" jsonschema:"job ID (a number, or the same as a string) or the job's name"`
	Grace *float64 `json:"grace,omitempty" jsonschema:"seconds between SIGTERM and SIGKILL (0-300; 0 sends SIGKILL at once; default: jobdeck's --grace, 5 unless set)"`
	// Restart starts the same command again once the tree is gone
	// (serve/restart.go).
	Restart bool `json:"restart,omitempty" jsonschema:"then start the same command again (same name, cwd, env) as a new job and return its report"`
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
