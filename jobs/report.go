package jobs

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
)

// wait blocks until d passes, ctx ends, the job is done (its whole tree
// gone and its output read), or with until, a line after cursor (or an
// open line) matches.
func (j *job) wait(ctx context.Context, d time.Duration, until *regexp.Regexp, cursor uint64) *model.WaitResult {
	start := time.Now()
	timer := time.NewTimer(d)
	defer timer.Stop()
	res := func(r model.WaitReason, m *model.Line) *model.WaitResult {
		return &model.WaitResult{Reason: r, Waited: time.Since(start), Match: m}
	}
	for {
		ch := j.waitChan() // taken before looking, so no change is missed
		if until != nil {
			p := j.ring.read(model.ReadRequest{After: cursor})
			for i := range p.Lines {
				if until.MatchString(sanitize.Plain(p.Lines[i].Text)) {
					return res(model.WaitMatched, &p.Lines[i])
				}
			}
			for i := range p.Partial {
				if until.MatchString(sanitize.Plain(p.Partial[i].Text)) {
					return res(model.WaitMatched, &p.Partial[i])
				}
			}
			cursor = p.Next
		}
		// The job ends when its whole tree is gone (and its output read),
		// not when the leader exits: processes it left may still print.
		ended := j.doneCh
		select {
		case <-ended:
			if until != nil {
				// Done: every line is in the ring now; look at the last.
				p := j.ring.read(model.ReadRequest{After: cursor})
				for i := range p.Lines {
					if until.MatchString(sanitize.Plain(p.Lines[i].Text)) {
						return res(model.WaitMatched, &p.Lines[i])
					}
				}
			}
			return res(model.WaitEnded, nil)
		default:
		}
		select {
		case <-ch:
		case <-ended:
		case <-timer.C:
			return res(model.WaitTimeout, nil)
		case <-ctx.Done():
			return res(model.WaitTimeout, nil)
		}
	}
}

// report builds the job's report: its snapshot, the lines opts asks for,
// and the plain text of both.
func (j *job) report(opts model.StatusOptions, w *model.WaitResult, now time.Time) model.Report {
	if opts.Lines <= 0 {
		opts.Lines = model.DefaultStatusLines
	}
	req := model.ReadRequest{Limit: opts.Lines, Tail: true}
	if opts.HasSince {
		req = model.ReadRequest{After: opts.Since, Limit: opts.Lines}
	}
	snap := j.snapshot()
	page := j.ring.read(req)
	return model.Report{Job: snap, Page: page, Wait: w, Text: FormatReport(snap, page, w, now)}
}

// FormatReport renders a report as plain text (DESIGN §5): the header, notes
// on the stop and on missing lines, then one line per output line ("> " for
// stdout, "! " for stderr), the open lines last. No escape byte survives:
// line texts go through sanitize.Plain.
func FormatReport(s model.Snapshot, p model.Page, w *model.WaitResult, now time.Time) string {
	var b strings.Builder
	b.WriteString(s.Header(now))
	b.WriteByte('\n')
	if note := stopNote(s, now); note != "" {
		b.WriteString(note)
		b.WriteByte('\n')
	}
	if note := signalNote(s); note != "" {
		b.WriteString(note)
		b.WriteByte('\n')
	}
	if s.Err != "" && s.State != model.StateFailed {
		fmt.Fprintf(&b, "note: %s\n", s.Err)
	}
	if w != nil {
		b.WriteString(waitNote(w))
		b.WriteByte('\n')
	}
	if p.Dropped > 0 {
		fmt.Fprintf(&b, "[… %d lines dropped]\n", p.Dropped)
	}
	if p.Skipped > 0 {
		fmt.Fprintf(&b, "[… %d earlier lines not shown]\n", p.Skipped)
	}
	for _, l := range p.Lines {
		writeLine(&b, l)
	}
	for _, l := range p.Partial {
		writeLine(&b, l)
	}
	switch {
	case p.More > 0:
		fmt.Fprintf(&b, "[… %d more lines: read on with since=%d]\n", p.More, p.Next)
	case len(p.Lines) == 0 && len(p.Partial) == 0 && p.Dropped == 0 && p.Last == 0 && s.Done:
		b.WriteString("(no output)\n")
	}
	return b.String()
}

func writeLine(b *strings.Builder, l model.Line) {
	b.WriteString(l.Stream.Marker())
	b.WriteString(sanitize.Plain(l.Text))
	if l.Dropped > 0 {
		fmt.Fprintf(b, " [… %s cut]", byteSize(l.Dropped))
	}
	b.WriteByte('\n')
}

// stopNote describes a stop: what was sent, and whether SIGKILL was needed.
func stopNote(s model.Snapshot, now time.Time) string {
	st := s.Stop
	if st == nil {
		return ""
	}
	grace := st.Grace.String()
	term := fmt.Sprintf("SIGTERM to %d %s", st.TermSent, plural(st.TermSent, "process", "processes"))
	if st.Done.IsZero() {
		if st.Grace == 0 {
			return fmt.Sprintf("stopping: SIGKILL at once, %v ago", now.Sub(st.At).Round(100*time.Millisecond))
		}
		return fmt.Sprintf("stopping: %s %v ago; SIGKILL follows after the %s grace", term,
			now.Sub(st.At).Round(100*time.Millisecond), grace)
	}
	took := st.Done.Sub(st.At).Round(10 * time.Millisecond)
	switch {
	case st.KillSent > 0 && st.Grace == 0:
		return fmt.Sprintf("stopped in %v: SIGKILL to %d %s at once", took, st.KillSent, plural(st.KillSent, "process", "processes"))
	case st.KillSent > 0:
		return fmt.Sprintf("stopped in %v: %s; SIGKILL was needed for %d after the %s grace", took, term, st.KillSent, grace)
	}
	return fmt.Sprintf("stopped in %v: %s; no SIGKILL needed", took, term)
}

// signalNote says when the SIGKILL or SIGTERM that ended the job did not
// come from jobdeck (the job itself, another process, or for SIGKILL often
// the kernel's OOM killer sent it). An exit
// status of 137 or 143 is only how bash reports such a death (or a plain
// `exit 137`), and is worded as such.
func signalNote(s model.Snapshot) string {
	// A lost supervisor's job has no true exit status (Err says so).
	if s.Exit == nil || s.Stop != nil || s.Err != "" {
		return ""
	}
	switch s.Exit.Signal {
	case int(syscall.SIGKILL):
		return "note: this SIGKILL was not sent by jobdeck (the kernel's OOM killer?)"
	case int(syscall.SIGTERM), int(syscall.SIGINT), int(syscall.SIGHUP), int(syscall.SIGQUIT):
		return "note: this " + model.SignalName(s.Exit.Signal) + " was not sent by jobdeck"
	}
	switch s.Exit.Code {
	case 128 + int(syscall.SIGKILL):
		return "note: exit status 137 usually means a process died of SIGKILL, not sent by jobdeck (the OOM killer?)"
	case 128 + int(syscall.SIGTERM):
		return "note: exit status 143 usually means a process died of SIGTERM, not sent by jobdeck"
	}
	return ""
}

func waitNote(w *model.WaitResult) string {
	waited := w.Waited.Round(100 * time.Millisecond)
	switch w.Reason {
	case model.WaitMatched:
		return fmt.Sprintf("wait: a line matched after %v: %s", waited, model.OneLine(sanitize.Plain(w.Match.Text), 200))
	case model.WaitEnded:
		return fmt.Sprintf("wait: the job ended after %v", waited)
	}
	return fmt.Sprintf("wait: timed out after %v", waited)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
