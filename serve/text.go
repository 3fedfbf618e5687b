package serve

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
)

// The agent's text: every word a client reads is made here, from the
// core's structure (model.Report, model.Snapshot). Nothing here looks at
// text made elsewhere.

// maxMatchShown is how many characters of a matched line a wait note
// quotes; maxPatternShown the same for an until pattern in a hint.
const (
	maxMatchShown   = 200
	maxPatternShown = 80
)

// reportText is the text result of one job's report, for a client named
// client (whose own jobs and stops are not attributed): the header, notes
// on the owner, the stop, the signal, problems and fallbacks and the wait,
// markers for lines not shown, the lines, and where to read on.
func reportText(r model.Report, client string, now time.Time) string {
	s, p := r.Job, r.Page
	lines := []string{plainString(s.Header(now))}
	if s.Owner != "" && s.Owner != client {
		lines = append(lines, "started by "+plainString(model.OneLine(s.Owner, 0)))
	}
	if note := stopNote(s.Stop, client, now); note != "" {
		lines = append(lines, note)
	}
	if note := signalNote(s); note != "" {
		lines = append(lines, note)
	}
	if s.Err != "" && s.State != model.StateFailed {
		lines = append(lines, "note: "+plainString(s.Err))
	}
	for _, n := range s.Notes {
		lines = append(lines, "note: "+plainString(n))
	}
	lines = append(lines, portLines(s)...)
	if r.Wait != nil {
		lines = append(lines, waitNote(r.Wait))
	}
	if p.Dropped > 0 {
		lines = append(lines, fmt.Sprintf("[… %d lines dropped]", p.Dropped))
	}
	if p.Skipped > 0 {
		lines = append(lines, fmt.Sprintf("[… %d earlier lines not shown]", p.Skipped))
	}
	for _, set := range [][]model.Line{p.Lines, p.Partial} {
		for _, l := range set {
			lines = append(lines, lineText(l))
		}
	}
	next := fmt.Sprintf(`job_status {"id":%d,"since":%d}`, s.ID, p.Next)
	switch {
	case p.More > 0:
		lines = append(lines, fmt.Sprintf("[… %d more lines: %s]", p.More, next))
	case len(p.Lines) == 0 && len(p.Partial) == 0 && p.Dropped == 0 && p.Last == 0 && s.Done:
		lines = append(lines, "(no output)")
	}
	if p.More == 0 && s.Live() {
		lines = append(lines, "[next: "+next+"]")
	}
	return strings.Join(lines, "\n")
}

// lineText is one output line: "> " (stdout) or "! " (stderr), its plain
// text, and how much of it was cut.
func lineText(l model.Line) string {
	s := l.Stream.Marker() + sanitize.Plain(l.Text)
	if l.Dropped > 0 {
		s += " [… " + byteSize(l.Dropped) + " cut]"
	}
	return s
}

// stopNote describes a stop: what was sent, whether SIGKILL was needed,
// and who asked when it was not client. Empty without a stop.
func stopNote(st *model.Stop, client string, now time.Time) string {
	if st == nil {
		return ""
	}
	by := ""
	if st.By != "" && st.By != client {
		by = " (asked by " + plainString(model.OneLine(st.By, 0)) + ")"
	}
	grace := st.Grace.String()
	term := fmt.Sprintf("SIGTERM to %s", count(st.TermSent, "process", "processes"))
	if st.Done.IsZero() {
		ago := now.Sub(st.At).Round(100 * time.Millisecond)
		if st.Grace == 0 {
			return fmt.Sprintf("stopping%s: SIGKILL at once, %v ago", by, ago)
		}
		return fmt.Sprintf("stopping%s: %s %v ago; SIGKILL follows after the %s grace", by, term, ago, grace)
	}
	took := st.Done.Sub(st.At).Round(10 * time.Millisecond)
	switch {
	case st.KillSent > 0 && st.Grace == 0:
		return fmt.Sprintf("stopped in %v%s: SIGKILL to %s at once", took, by, count(st.KillSent, "process", "processes"))
	case st.KillSent > 0:
		return fmt.Sprintf("stopped in %v%s: %s; SIGKILL was needed for %d after the %s grace", took, by, term, st.KillSent, grace)
	}
	return fmt.Sprintf("stopped in %v%s: %s; no SIGKILL needed", took, by, term)
}

// signalNote says when the signal that ended the job did not come from
// jobdeck (the job itself, another process, or for SIGKILL often the
// kernel's OOM killer). An exit status of 137 or 143 is only how bash
// reports such a death (or a plain `exit 137`), and is worded as such.
func signalNote(s model.Snapshot) string {
	fs, ok := s.ForeignSignal()
	switch {
	case !ok:
		return ""
	case fs.ViaShell && fs.Signal == 9:
		return "note: exit status 137 usually means a process died of SIGKILL, not sent by jobdeck (the OOM killer?)"
	case fs.ViaShell:
		return fmt.Sprintf("note: exit status %d usually means a process died of %s, not sent by jobdeck", 128+fs.Signal, model.SignalName(fs.Signal))
	case fs.Signal == 9:
		return "note: this SIGKILL was not sent by jobdeck (the kernel's OOM killer?)"
	}
	return "note: this " + model.SignalName(fs.Signal) + " was not sent by jobdeck"
}

// waitNote says how a wait ended: "wait: a line matched after 700ms:
// ready", "wait: the job ended after 1.2s", "wait: timed out after 5s".
func waitNote(w *model.WaitResult) string {
	waited := w.Waited.Round(100 * time.Millisecond)
	switch w.Reason {
	case model.WaitMatched:
		text := ""
		if w.Match != nil {
			text = model.OneLine(sanitize.Plain(w.Match.Text), maxMatchShown)
		}
		return fmt.Sprintf("wait: a line matched after %v: %s", waited, text)
	case model.WaitEnded:
		return fmt.Sprintf("wait: the job ended after %v", waited)
	}
	return fmt.Sprintf("wait: timed out after %v", waited)
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

// quotePattern quotes an until pattern for a hint, on one line and cut to
// maxPatternShown characters.
func quotePattern(p string) string {
	return `"` + model.OneLine(plainString(p), maxPatternShown) + `"`
}

// compactSeconds formats d as seconds without trailing zeros: "5s",
// "0.5s", "1.25s".
func compactSeconds(d time.Duration) string {
	return strconv.FormatFloat(roundSeconds(d), 'f', -1, 64) + "s"
}

// count returns "1 process", "3 processes".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// byteSize formats n bytes for people: 812 bytes, 34.2 KiB, 47.6 MiB.
func byteSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
