package serve

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
)

// The agent's text: every word a client reads is made here and in
// render.go, from the core's structure (model.Report, model.Snapshot).
// Nothing here looks at text made elsewhere.

// maxMatchShown is how many characters of a matched line a wait note
// quotes; maxPatternShown the same for a pattern in a note or hint.
const (
	maxMatchShown   = 200
	maxPatternShown = 80
)

// How much of the command a header shows: all of it (up to
// maxFullCommand characters) in background's report, up to
// maxListCommand in the list, else the name, or the command cut to
// maxShortCommand characters.
const (
	maxShortCommand = 40
	maxListCommand  = 200
	maxFullCommand  = 1000
)

// header is the first line of a job's report: "job 3 (web) exited 1 0:14"
// for a named job, "job 3 exited 1 0:14 make test" for one without a name
// (the command cut to cmdMax characters); a cmdMax beyond maxShortCommand
// shows the command of a named job too.
func header(s model.Snapshot, now time.Time, cmdMax int) string {
	if s.Name != "" && cmdMax <= maxShortCommand {
		cmdMax = model.NoCommand
	}
	return plainString(s.HeaderWith(now, "", cmdMax))
}

// waitWords are what a wait note needs besides the outcome.
type waitWords struct {
	// shown: the matched line was already in an earlier result; inResult:
	// this result shows it too (the note then does not quote it).
	shown, inResult bool
	// job names the job the wait ended on (a wait on any job), else "".
	job string
	// until and after describe a timeout's search: the pattern and the
	// cursor it searched after (hasAfter false: the whole ring).
	until    string
	after    uint64
	hasAfter bool
	now      time.Time
	// ending is why the server cut a cancelled wait short ("the session
	// is ending"); "" when the client cancelled it.
	ending string
	// fromStart, for background's wait, is how long after the job started
	// the matched line came or the job ended: the note says that, not how
	// long the wait itself took (the start's own report time came first).
	fromStart *time.Duration
}

// sinceStart is how long after its job started a wait's matched line
// came, or the job ended; nil when the report's wait did neither.
func sinceStart(rep model.Report) *time.Duration {
	w, start := rep.Wait, rep.Job.Started
	var at time.Time
	switch {
	case w == nil || start.IsZero():
		return nil
	case w.Reason == model.WaitMatched && w.Match != nil:
		at = w.Match.Time
	case w.Reason == model.WaitEnded && !rep.Job.Ended.IsZero():
		at = rep.Job.Ended
	default:
		return nil
	}
	d := max(at.Sub(start), 0)
	return &d
}

// waitNote says how a wait ended: "wait: matched line 4 after 1.2s
// (printed 300ms ago): ready", "wait: job 2 (tests) ended after 12s",
// "wait: timed out after 5s", "wait: cancelled by the client after 2s",
// "wait: cut short after 30s: the session is ending"; background's:
// "wait: matched line 1 300ms after the start".
func waitNote(w *model.WaitResult, ww waitWords) string {
	waited := "after " + w.Waited.Round(100*time.Millisecond).String()
	if w.Waited < 50*time.Millisecond {
		waited = "at once"
	}
	started := ww.fromStart != nil && (w.Reason == model.WaitMatched || w.Reason == model.WaitEnded)
	if started {
		waited = ww.fromStart.Round(100*time.Millisecond).String() + " after the start"
		if *ww.fromStart < 50*time.Millisecond {
			waited = "as it started"
		}
	}
	who := ""
	if ww.job != "" {
		who = ww.job + " "
	}
	switch w.Reason {
	case model.WaitMatched:
		m := w.Match
		if m == nil {
			return fmt.Sprintf("wait: %smatched %s", who, waited)
		}
		what := "line " + strconv.FormatUint(m.Seq, 10)
		if m.Partial {
			what = "the open line (no newline yet)"
		}
		when := " (printed " + max(ww.now.Sub(m.Time), 0).Round(100*time.Millisecond).String() + " ago"
		if ww.shown {
			when += ", already in an earlier result"
		}
		when += ")"
		if started {
			when = "" // its time is in waited
		}
		note := fmt.Sprintf("wait: %smatched %s %s%s", who, what, waited, when)
		if ww.inResult {
			return note
		}
		return note + ": " + model.OneLine(sanitize.Plain(m.Text), maxMatchShown)
	case model.WaitEnded:
		if who == "" {
			who = "the job "
		}
		return fmt.Sprintf("wait: %sended %s", who, waited)
	case model.WaitCancelled:
		if ww.ending != "" {
			return fmt.Sprintf("wait: cut short %s: %s", waited, ww.ending)
		}
		return "wait: cancelled by the client " + waited
	case model.WaitIdle:
		if ww.until != "" {
			return "wait: no job is running and no line of any job matches " + quotePattern(ww.until)
		}
		return "wait: no job is running, so none can end"
	}
	note := "wait: timed out " + waited
	switch {
	case ww.until != "" && ww.hasAfter && ww.after > 0:
		note += fmt.Sprintf("; no line after line %d matched %s", ww.after, quotePattern(ww.until))
	case ww.until != "":
		note += "; no line matched " + quotePattern(ww.until)
	}
	return note
}

// grepNote sums up a grep: `grep "FAIL": 5 matching lines in lines
// 1001-3000`: the matches of the lines searched (the range the ring held,
// whatever part of it the result shows).
func grepNote(pattern string, matches int, info model.ReadInfo) string {
	where := ""
	switch {
	case info.Hi > info.Lo:
		where = fmt.Sprintf(" in lines %d-%d", info.Lo, info.Hi)
	case info.Hi == info.Lo && info.Lo > 0:
		where = fmt.Sprintf(" in line %d", info.Lo)
	}
	return fmt.Sprintf("grep %s: %s%s", quotePattern(pattern), model.Count(matches, "matching line", "matching lines"), where)
}

// quotePattern quotes a pattern for a note, on one line and cut to
// maxPatternShown characters.
func quotePattern(p string) string {
	return `"` + model.OneLine(plainString(p), maxPatternShown) + `"`
}

// jsonString is s as a JSON string, for a call in a hint (<, > and & are
// not escaped: the hint is read, not embedded in HTML).
func jsonString(s string) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// compactSeconds formats d as seconds without trailing zeros: "5s",
// "0.5s", "1.25s".
func compactSeconds(d time.Duration) string {
	return strconv.FormatFloat(roundSeconds(d), 'f', -1, 64) + "s"
}
