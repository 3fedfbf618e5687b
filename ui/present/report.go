package present

import (
	"fmt"
	"strconv"
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/words"
)

// Report is a job's full report for the /job-status overlay, as plain
// lines (no escape bytes; tabs may remain): the header (with the ports),
// the details (pid, start time and who started it, cgroup, directory, the
// whole command, listening sockets, a port conflict: Details), the stop,
// a signal jobdeck did not send, a problem the supervisor reported, its
// fallbacks (each once), how a wait ended, markers for lines not shown,
// the lines ("> " stdout, "! " stderr), the open lines last. Every stop
// says who asked for it ("asked by console"), the console's own too: a
// session may have several consoles. self is kept for the callers that
// leave their own stops unattributed (words.StopNote).
func Report(r model.Report, self string, now time.Time) []string {
	_ = self // the overlay attributes every stop
	s, p := r.Job, r.Page
	out := []string{Title(s, now)}
	out = append(out, Details(s, now)...)
	if note := words.StopNote(s.Stop, "", now, ""); note != "" {
		out = append(out, note)
	}
	if note := words.SignalNote(s); note != "" {
		out = append(out, note)
	}
	if s.Err != "" && s.State != model.StateFailed {
		out = append(out, "note: "+sanitize.Plain([]byte(s.Err)))
	}
	for _, n := range s.Notes {
		out = append(out, "note: "+sanitize.Plain([]byte(n)))
	}
	if r.Wait != nil {
		out = append(out, WaitNote(r.Wait))
	}
	if p.Dropped > 0 {
		out = append(out, Dropped(p.Dropped))
	}
	if p.Skipped > 0 {
		out = append(out, "[… "+strconv.FormatUint(p.Skipped, 10)+" earlier lines not shown]")
	}
	for _, set := range [][]model.Line{p.Lines, p.Partial} {
		for _, l := range set {
			out = append(out, Line(l))
		}
	}
	switch {
	case p.More > 0:
		out = append(out, "[… "+strconv.FormatUint(p.More, 10)+" more lines]")
	case len(p.Lines) == 0 && len(p.Partial) == 0 && p.Dropped == 0 && p.Last == 0 && s.Done:
		out = append(out, "(no output)")
	}
	return out
}

// Line is one output line as plain text: "> " or "! ", the line with its
// escapes removed, and how much of it was cut ("[… 47.7 MiB cut]").
func Line(l model.Line) string {
	s := l.Stream.Marker() + sanitize.Plain(l.Text)
	if l.Dropped > 0 {
		s += " " + Cut(l.Dropped)
	}
	return s
}

// RestartedAs is the /job-status line of a run that was restarted: the
// run that replaced it ("restarted as job 4"; its report says "restart of
// job 3").
func RestartedAs(next model.JobID) string { return "restarted as job " + next.String() }

// Cut is the marker of a line the ring cut at its line limit, n bytes
// lost: "[… 47.7 MiB cut]".
func Cut(n int64) string { return "[… " + model.ByteSize(n) + " cut]" }

// Dropped is the marker for n lines the ring evicted before they were
// shown: "[… 48209 lines dropped]".
func Dropped(n uint64) string {
	return "[… " + strconv.FormatUint(n, 10) + " lines dropped]"
}

// WaitNote says how a wait ended: "wait: a line matched after 700ms:
// ready", "wait: the job ended after 1.2s", "wait: timed out after 5s".
func WaitNote(w *model.WaitResult) string {
	waited := w.Waited.Round(100 * time.Millisecond)
	switch w.Reason {
	case model.WaitMatched:
		text := ""
		if w.Match != nil {
			text = model.OneLine(sanitize.Plain(w.Match.Text), 200)
		}
		return fmt.Sprintf("wait: a line matched after %v: %s", waited, text)
	case model.WaitEnded:
		return fmt.Sprintf("wait: the job ended after %v", waited)
	case model.WaitCancelled:
		return fmt.Sprintf("wait: cancelled after %v", waited)
	}
	return fmt.Sprintf("wait: timed out after %v", waited)
}
