package serve

import (
	"encoding/json"
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
)

// Report is the structured content of background, job_kill and job_status
// with an id: one job's state and lines. Every string is plain text (valid
// UTF-8, no escape or control bytes other than tab; Command keeps its
// newlines).
type Report struct {
	ID      int    `json:"id" jsonschema:"job ID: pass it as id to job_status and job_kill"`
	Name    string `json:"name,omitempty" jsonschema:"the job's label, when it has one"`
	Command string `json:"command" jsonschema:"the command as given"`
	State   string `json:"state" jsonschema:"running, stopping, exited or failed"`
	Status  string `json:"status" jsonschema:"the state as the report header shows it, e.g. exited 1, killed by SIGTERM, exited 0, 2 still running, failed: reason"`
	PID     int    `json:"pid,omitempty" jsonschema:"the leader's process ID (bash), for information"`
	// Owner is who started the job: "console", or an MCP client's name.
	Owner string `json:"owner,omitempty" jsonschema:"who started the job: console (the person at jobdeck's console) or an MCP client's name"`
	// StoppedBy is who asked for the job's stop, once one was asked for.
	StoppedBy string `json:"stopped_by,omitempty" jsonschema:"who asked for the stop: console, an MCP client's name, or jobdeck (shutting down)"`
	// Notes are what the job's supervisor could not set up, and how it
	// falls back.
	Notes []string `json:"notes,omitempty" jsonschema:"what jobdeck could not set up for this job and how it falls back, e.g. no cgroup v2"`
	// ExitCode is the leader's exit status once it exited normally.
	ExitCode *int `json:"exit_code,omitempty" jsonschema:"the leader's exit status, once it exited normally"`
	// Signal is the name of the signal that killed the leader ("SIGTERM").
	Signal string `json:"signal,omitempty" jsonschema:"the signal that killed the leader, e.g. SIGTERM"`
	// StillRunning counts processes of the job's tree still running after
	// the leader exited, or during a stop.
	StillRunning   int     `json:"still_running" jsonschema:"processes the leader left running after it exited, each counted with what it started; job_kill stops them"`
	ElapsedSeconds float64 `json:"elapsed_seconds" jsonschema:"how long the job ran (until now while it runs)"`
	Error          string  `json:"error,omitempty" jsonschema:"why the job failed to start, or a problem reported while it ran"`
	Lines          []Line  `json:"lines" jsonschema:"output lines, oldest first"`
	Partial        []Line  `json:"partial,omitempty" jsonschema:"the unterminated last line of each stream (a prompt without newline), not counted by the cursor"`
	// Next is the cursor to pass as since to read on.
	Next uint64 `json:"next" jsonschema:"cursor: pass it as since to job_status to read only newer lines"`
	// Last is the seq of the newest line the job printed.
	Last uint64 `json:"last" jsonschema:"seq of the newest complete line the job printed"`
	// Dropped counts lines after the cursor that the ring evicted unread.
	Dropped uint64 `json:"dropped" jsonschema:"lines after the cursor that were dropped (the ring keeps 2000) before they could be read"`
	// More counts lines after the last returned one that did not fit lines.
	More uint64 `json:"more,omitempty" jsonschema:"lines after the last one returned that did not fit lines; read on with since=next"`
	// Skipped counts older lines a tail request left out.
	Skipped uint64 `json:"skipped,omitempty" jsonschema:"older lines left out of this tail; ask for more lines to see them"`
	// Wait says how a wait ended, when the request waited.
	Wait *Wait `json:"wait,omitempty" jsonschema:"how the wait ended, when job_status waited"`
	// Finished notes jobs that finished since the client last looked.
	Finished []Brief `json:"finished,omitempty" jsonschema:"other jobs that finished since you last looked (each is noted once)"`
}

// Line is one output line in structured content.
type Line struct {
	Seq    uint64 `json:"seq" jsonschema:"the line's sequence number within its job (1, 2, 3 …)"`
	Stream string `json:"stream" jsonschema:"out (stdout) or err (stderr)"`
	Text   string `json:"text" jsonschema:"the line as plain text, escape sequences removed"`
	// DroppedBytes counts bytes cut from the end of an over-long line.
	DroppedBytes int64 `json:"dropped_bytes,omitempty" jsonschema:"bytes cut from the end of this over-long line"`
}

// Wait says how a waiting job_status ended.
type Wait struct {
	Reason        string  `json:"reason" jsonschema:"matched (a new line matched until), ended (the job ended) or timeout"`
	WaitedSeconds float64 `json:"waited_seconds" jsonschema:"how long the request waited"`
	// MatchSeq is the seq of the line that matched (reason matched only).
	MatchSeq uint64 `json:"match_seq,omitempty" jsonschema:"seq of the line that matched until"`
}

// Brief is one job in a list or a finished-job note.
type Brief struct {
	ID           int    `json:"id"`
	Name         string `json:"name,omitempty"`
	Command      string `json:"command"`
	State        string `json:"state" jsonschema:"running, stopping, exited or failed"`
	Status       string `json:"status" jsonschema:"the state as the header shows it, e.g. exited 1"`
	Owner        string `json:"owner,omitempty" jsonschema:"who started the job: console or an MCP client's name"`
	ExitCode     *int   `json:"exit_code,omitempty"`
	Signal       string `json:"signal,omitempty"`
	StillRunning int    `json:"still_running"`
	// Header is the job's one-line summary as the text shows it.
	Header string `json:"header" jsonschema:"the one-line summary: job 2 exited 1 0:14 make test"`
}

// StatusOutput is the structured content of job_status: one job's Report
// when an id was given, or {"jobs": [Brief, …]} (every job, in ID order)
// without one.
type StatusOutput struct {
	Report *Report
	Jobs   []Brief
}

// MarshalJSON writes the Report's fields, or {"jobs": […]} for a list.
func (o StatusOutput) MarshalJSON() ([]byte, error) {
	if o.Report != nil {
		return json.Marshal(o.Report)
	}
	jobs := o.Jobs
	if jobs == nil {
		jobs = []Brief{}
	}
	return json.Marshal(struct {
		Jobs []Brief `json:"jobs"`
	}{jobs})
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

// newBrief summarises snap for a list or a note.
func newBrief(snap model.Snapshot, now time.Time) Brief {
	code, sig := exitFields(snap)
	return Brief{
		ID:           int(snap.ID),
		Name:         plainString(snap.Name),
		Command:      plainString(snap.Command),
		State:        snap.State.String(),
		Status:       plainString(snap.Status()),
		Owner:        plainString(snap.Owner),
		ExitCode:     code,
		Signal:       sig,
		StillRunning: snap.Remaining,
		Header:       plainString(snap.Header(now)),
	}
}

// newReport converts a core report to structured content. Line text goes
// through sanitize.Plain.
func newReport(r model.Report, now time.Time) *Report {
	snap := r.Job
	code, sig := exitFields(snap)
	out := &Report{
		ID:             int(snap.ID),
		Name:           plainString(snap.Name),
		Command:        plainString(snap.Command),
		State:          snap.State.String(),
		Status:         plainString(snap.Status()),
		PID:            snap.PID,
		Owner:          plainString(snap.Owner),
		ExitCode:       code,
		Signal:         sig,
		StillRunning:   snap.Remaining,
		ElapsedSeconds: roundSeconds(snap.Elapsed(now)),
		Error:          plainString(snap.Err),
		Lines:          convertLines(r.Page.Lines),
		Next:           r.Page.Next,
		Last:           r.Page.Last,
		Dropped:        r.Page.Dropped,
		More:           r.Page.More,
		Skipped:        r.Page.Skipped,
	}
	if snap.Stop != nil {
		out.StoppedBy = plainString(snap.Stop.By)
	}
	for _, n := range snap.Notes {
		out.Notes = append(out.Notes, plainString(n))
	}
	if len(r.Page.Partial) > 0 {
		out.Partial = convertLines(r.Page.Partial)
	}
	if w := r.Wait; w != nil {
		out.Wait = &Wait{Reason: w.Reason.String(), WaitedSeconds: roundSeconds(w.Waited)}
		if w.Match != nil {
			out.Wait.MatchSeq = w.Match.Seq
		}
	}
	return out
}

// convertLines converts ring lines; the result is never nil, so that it
// marshals as [] and not null.
func convertLines(in []model.Line) []Line {
	out := make([]Line, 0, len(in))
	for _, l := range in {
		out = append(out, Line{Seq: l.Seq, Stream: l.Stream.String(), Text: sanitize.Plain(l.Text), DroppedBytes: l.Dropped})
	}
	return out
}

// roundSeconds returns d in seconds, rounded to milliseconds.
func roundSeconds(d time.Duration) float64 {
	return float64(d.Round(time.Millisecond)) / float64(time.Second)
}
