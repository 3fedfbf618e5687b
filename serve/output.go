package serve

import (
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
)

// Report is the structured content of background, job_kill and job_status
// with an id: one job's state and the lines the text shows, with the same
// cuts. Every string is plain text (valid UTF-8, no escape or control
// bytes other than tab; Command keeps its newlines). Field meanings are
// taught by the tool descriptions; the shared output schema (schema.go)
// names the main ones.
type Report struct {
	ID   int    `json:"id"`
	Name string `json:"name,omitempty"`
	// Command is the command as background's report (and a restart's)
	// shows it: up to 1000 characters, cut with "…" beyond;
	// CommandBytes is the whole command's length when it was cut.
	Command      string `json:"command,omitempty"`
	CommandBytes int    `json:"command_bytes,omitempty"`
	State        string `json:"state"`
	// Status is the state as the header shows it: exited 1, killed by
	// SIGTERM, exited 0, 2 still running, failed: reason.
	Status string `json:"status"`
	PID    int    `json:"pid,omitempty"`
	// Owner is who started the job: "console", or an MCP client's name.
	Owner string `json:"owner,omitempty"`
	// StoppedBy is who asked for the job's stop, once one was asked for.
	StoppedBy string `json:"stopped_by,omitempty"`
	// Notes are what the job's supervisor could not set up, and how it
	// falls back.
	Notes []string `json:"notes,omitempty"`
	// ExitCode is the leader's exit status once it exited normally.
	ExitCode *int `json:"exit_code,omitempty"`
	// Signal is the name of the signal that killed the leader ("SIGTERM").
	Signal string `json:"signal,omitempty"`
	// StillRunning counts processes of the job's tree still running after
	// the leader exited, or during a stop.
	StillRunning   int     `json:"still_running"`
	ElapsedSeconds float64 `json:"elapsed_seconds"`
	Error          string  `json:"error,omitempty"`
	// Lines are the lines the text shows, oldest first; Partial the open
	// line of each stream (no newline yet), not counted by the cursor.
	Lines   []Line `json:"lines"`
	Partial []Line `json:"partial,omitempty"`
	// Next is the cursor to pass as since to read on; Last the seq of the
	// newest line the job printed.
	Next uint64 `json:"next"`
	Last uint64 `json:"last"`
	// Dropped counts lines after the cursor that the ring evicted unread.
	Dropped uint64 `json:"dropped,omitempty"`
	// Skipped counts older lines (with grep: matches) left out, More the
	// newer ones a head read left out; Calls are the exact job_status
	// calls that read them, as the text gives them.
	Skipped uint64   `json:"skipped,omitempty"`
	More    uint64   `json:"more,omitempty"`
	Calls   []string `json:"calls,omitempty"`
	// Matches counts the lines a grep matched, shown or not.
	Matches *int `json:"matches,omitempty"`
	// Wait says how a wait ended, when the request waited.
	Wait *Wait `json:"wait,omitempty"`
	// Finished notes jobs that finished since the client last looked, as
	// the text notes them; FinishedMore counts those the text only counts
	// (its budget).
	Finished     []Brief `json:"finished,omitempty"`
	FinishedMore int     `json:"finished_more,omitempty"`
}

// Line is one output line in structured content.
type Line struct {
	Seq    uint64 `json:"seq"`
	Stream string `json:"stream"`
	// Text is the line as the text result shows it after its marker: plain,
	// with the same "[… N cut]" marks.
	Text string `json:"text"`
	// Cut counts bytes cut out of the middle (the result's budget) and
	// from the end (the ring's 16 KiB line cap) of the line.
	Cut int64 `json:"cut,omitempty"`
	// Context marks a line a grep shows around a match.
	Context bool `json:"context,omitempty"`
}

// Wait says how a wait ended.
type Wait struct {
	// Reason is matched, ended, timeout, idle (no job could end it) or
	// cancelled (the client cancelled the call, or the session is ending:
	// the text says which).
	Reason        string  `json:"reason"`
	WaitedSeconds float64 `json:"waited_seconds"`
	// Job is the job the wait ended on (waits on any job).
	Job *int `json:"job,omitempty"`
	// MatchSeq is the seq of the line that matched (0: an open line), and
	// MatchAgeSeconds how long before the answer it was printed.
	MatchSeq        uint64  `json:"match_seq,omitempty"`
	MatchAgeSeconds float64 `json:"match_age_seconds,omitempty"`
	// Shown says the matched line was already in an earlier result.
	Shown bool `json:"shown,omitempty"`
}

// Brief is one job in a list or a finished-job note.
type Brief struct {
	ID   int    `json:"id"`
	Name string `json:"name,omitempty"`
	// Command is the command as the job's line in the text shows it:
	// up to 200 characters in a list, 40 in a note, cut with "…" beyond;
	// CommandBytes is the whole command's length when it was cut.
	Command      string `json:"command"`
	CommandBytes int    `json:"command_bytes,omitempty"`
	State        string `json:"state"`
	Status       string `json:"status"`
	Owner        string `json:"owner,omitempty"`
	ExitCode     *int   `json:"exit_code,omitempty"`
	Signal       string `json:"signal,omitempty"`
	StillRunning int    `json:"still_running"`
	// Header is the job's one-line summary as the text shows it.
	Header string `json:"header"`
}

// List is the structured content of job_status without an id: the jobs
// the text shows, in ID order, and after a wait on any job, how it ended.
// More counts the older finished jobs the budget left out, and Calls
// holds the call that lists more of them, as the text gives it.
type List struct {
	Jobs  []Brief  `json:"jobs"`
	More  int      `json:"more,omitempty"`
	Calls []string `json:"calls,omitempty"`
	Wait  *Wait    `json:"wait,omitempty"`
}

// plainString makes s safe for structured content and text: each line
// sanitised with sanitize.Plain (escapes dropped, controls shown as
// pictures, valid UTF-8), newlines kept.
func plainString(s string) string {
	if s == "" {
		return ""
	}
	start, out := 0, make([]byte, 0, len(s))
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' {
			out = sanitize.AppendPlain(out, []byte(s[start:i]))
			if i < len(s) {
				out = append(out, '\n')
			}
			start = i + 1
		}
	}
	return string(out)
}

// exitFields returns the exit code or signal name of snap.
func exitFields(snap model.Snapshot) (*int, string) {
	if snap.Exit == nil {
		return nil, ""
	}
	if snap.Exit.Signaled() {
		return nil, model.SignalName(snap.Exit.Signal)
	}
	code := snap.Exit.Code
	return &code, ""
}

// roundSeconds returns d in seconds, rounded to milliseconds.
func roundSeconds(d time.Duration) float64 {
	return float64(d.Round(time.Millisecond)) / float64(time.Second)
}
