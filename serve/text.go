package serve

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// maxPatternShown is how many characters of an until pattern a wait line
// quotes.
const maxPatternShown = 80

// reportText is the text result of one job's report: the core's text,
// then how a wait ended, then where to read on.
// Lines the core already wrote (its own wait note, its "more lines" hint)
// are not repeated.
func reportText(r model.Report, until string, wait time.Duration) string {
	var b strings.Builder
	core := strings.TrimRight(plainString(r.Text), "\n")
	b.WriteString(core)
	if line := waitLine(r.Wait, until, wait); line != "" && !hasLinePrefix(core, "wait: ") {
		b.WriteString("\n")
		b.WriteString(line)
	}
	if line := cursorLine(r); line != "" && !(r.Page.More > 0 && strings.Contains(core, "more lines")) {
		b.WriteString("\n")
		b.WriteString(line)
	}
	return b.String()
}

// hasLinePrefix reports whether a line of text starts with prefix.
func hasLinePrefix(text, prefix string) bool {
	return strings.HasPrefix(text, prefix) || strings.Contains(text, "\n"+prefix)
}

// waitLine says how a wait ended: "wait: matched \"ready\" after 2.0s",
// "wait: job ended", "wait: timed out after 5s". Empty when there was no
// wait.
func waitLine(w *model.WaitResult, until string, wait time.Duration) string {
	if w == nil {
		return ""
	}
	switch w.Reason {
	case model.WaitMatched:
		s := fmt.Sprintf("wait: matched %s after %.1fs", quotePattern(until), w.Waited.Seconds())
		if w.Match != nil {
			s += fmt.Sprintf(" (line %d)", w.Match.Seq)
		}
		return s
	case model.WaitEnded:
		if w.Waited < 50*time.Millisecond {
			return "wait: job ended"
		}
		return fmt.Sprintf("wait: job ended after %.1fs", w.Waited.Seconds())
	case model.WaitTimeout:
		if wait <= 0 {
			wait = w.Waited
		}
		s := "wait: timed out after " + compactSeconds(wait)
		if until != "" {
			s += "; no new line matched " + quotePattern(until)
		}
		return s
	}
	return "wait: " + w.Reason.String()
}

// cursorLine tells where to read on: the lines that did not fit, or, for a
// job that may still print, the cursor for newer lines.
func cursorLine(r model.Report) string {
	next := fmt.Sprintf(`job_status {"id":%d,"since":%d}`, r.Job.ID, r.Page.Next)
	switch {
	case r.Page.More > 0:
		return fmt.Sprintf("[… %d more lines: %s]", r.Page.More, next)
	case r.Job.Live():
		return "[next: " + next + "]"
	}
	return ""
}

// noteLines is one line per job that finished since the client last
// looked: "job 2 exited 1 0:14 make test (finished; job_status {"id":2}
// for its output)".
func noteLines(notes []model.Snapshot, now time.Time) string {
	var b strings.Builder
	for i, s := range notes {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, `%s (finished; job_status {"id":%d} for its output)`, plainString(s.Header(now)), s.ID)
	}
	return b.String()
}

// listText is the text of job_status without id: one header per job, or
// "no jobs" with a hint.
func listText(list []model.Snapshot, dropped int, now time.Time) string {
	var lines []string
	if len(list) == 0 {
		lines = append(lines, `no jobs; start one with background {"command":"..."}`)
	}
	for _, s := range list {
		lines = append(lines, plainString(s.Header(now)))
	}
	switch {
	case dropped == 1:
		lines = append(lines, "(1 older finished job was dropped: only the most recent finished jobs are kept)")
	case dropped > 1:
		lines = append(lines, fmt.Sprintf("(%d older finished jobs were dropped: only the most recent finished jobs are kept)", dropped))
	}
	return strings.Join(lines, "\n")
}

// withNotes appends the note lines to text, after a blank line.
func withNotes(text string, notes []model.Snapshot, now time.Time) string {
	if len(notes) == 0 {
		return text
	}
	return text + "\n\n" + noteLines(notes, now)
}

// quotePattern quotes an until pattern for a wait line, on one line and
// cut to maxPatternShown characters.
func quotePattern(p string) string {
	return `"` + model.OneLine(plainString(p), maxPatternShown) + `"`
}

// compactSeconds formats d as seconds without trailing zeros: "5s",
// "0.5s", "1.25s".
func compactSeconds(d time.Duration) string {
	return strconv.FormatFloat(roundSeconds(d), 'f', -1, 64) + "s"
}
