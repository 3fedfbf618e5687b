package serve

import (
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// The structured content of a rendered report: the same lines as the
// text, with the same cuts (render.go picks them within the budget).

// structured is the structured content of a rendered report.
// notes are the finished-job notes the text shows, and notesLeft counts
// those it only counts.
func (v view) structured(lines, partial []shownLine, cut pageCut, calls []string, notes []Brief, notesLeft int) *Report {
	snap, p := v.rep.Job, v.rep.Page
	code, sig := exitFields(snap)
	out := &Report{
		ID: int(snap.ID), Name: plainString(snap.Name), State: snap.State.String(),
		Status: plainString(snap.Status()), PID: snap.PID, Owner: plainString(snap.Owner),
		ExitCode: code, Signal: sig, StillRunning: snap.Remaining,
		ElapsedSeconds: roundSeconds(snap.Elapsed(v.now)), Error: plainString(snap.Err),
		Lines: structLines(lines), Next: cut.next, Last: p.Last, Dropped: p.Dropped,
		Skipped: cut.skipped, More: cut.more, Calls: calls,
	}
	if v.full {
		out.Command, out.CommandBytes = cutCommand(snap.Command, maxFullCommand)
	}
	if snap.Stop != nil {
		out.StoppedBy = plainString(snap.Stop.By)
	}
	for _, n := range snap.Notes {
		out.Notes = append(out.Notes, plainString(n))
	}
	if len(partial) > 0 {
		out.Partial = structLines(partial)
	}
	if g := v.rep.Read.Grep; g != nil {
		out.Matches = &g.Matches
	}
	if w := v.rep.Wait; w != nil {
		out.Wait = structWait(w, v.ww.shown, v.now, false)
	}
	out.Finished, out.FinishedMore = notes, notesLeft
	return out
}

// structLines converts rendered lines; never nil, so that it marshals as
// [] and not null.
func structLines(ls []shownLine) []Line {
	out := make([]Line, 0, len(ls))
	for _, l := range ls {
		out = append(out, structLine(l))
	}
	return out
}

// structLine is the structured content of one rendered line.
func structLine(l shownLine) Line {
	return Line{Seq: l.l.Seq, Stream: l.l.Stream.String(), Text: l.body, Cut: l.l.Cut + l.l.Dropped, Context: !l.match}
}

// structWait converts a wait's outcome; anyJob names its job.
func structWait(w *model.WaitResult, shown bool, now time.Time, anyJob bool) *Wait {
	out := &Wait{Reason: w.Reason.String(), WaitedSeconds: roundSeconds(w.Waited), Shown: shown}
	if anyJob && w.Job >= 0 && w.Reason != model.WaitTimeout && w.Reason != model.WaitIdle && w.Reason != model.WaitCancelled {
		id := int(w.Job)
		out.Job = &id
	}
	if m := w.Match; m != nil {
		out.MatchSeq = m.Seq
		out.MatchAgeSeconds = roundSeconds(max(now.Sub(m.Time), 0))
	}
	return out
}
