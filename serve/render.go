package serve

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/words"
)

// A report result is made in two steps: the core selects lines within a
// byte budget of plain text (StatusOptions.MaxBytes, LineBytes), then render
// words them and, where the words do not fit the result's budget (markers,
// sanitised text, notes), leaves out more of the oldest lines. The text is
// the result a model reads; with --serve --structured (view.typed) the
// structured content shows the same lines, with the same cuts, and its
// JSON fits the budget on its own too.

// lineBudget is the most bytes one line keeps in a result of budget bytes:
// a sixteenth of it (1 KiB of 16 KiB; 16 KiB, the ring's own cap, of 256
// KiB), at least 256. Longer lines are cut in the middle.
func lineBudget(budget int) int { return max(256, budget/16) }

// view is one report result to render.
type view struct {
	rep    model.Report
	client string
	now    time.Time
	// full shows the whole command in the header (background's report).
	full bool
	// budget is the most bytes of text (and, when typed, of the
	// structured content's JSON, each on its own).
	budget int
	// typed makes the structured content too (--serve --structured).
	typed bool
	// head is the head count asked for (paging calls repeat it).
	head int
	// grep and context are the read's filter, repeated in paging calls.
	grep    string
	context int
	// ww words the wait note (the matched line shown before, the
	// search of a timeout).
	ww waitWords
	// kill words the report of a stop: no lines is "no new output"; found
	// is "stopping" or "stopped" when the job already was (stopNote).
	kill  bool
	found string
	// lead is a line before the header (a restart says how the old run
	// ended).
	lead string
	// notes are the finished jobs to note at the end.
	notes []model.Snapshot
	// rerun is the job's restart, when it was restarted (its new run).
	rerun *model.JobID
}

// shownLine is a rendered output line: prefix (a grep's "seq: ", and the
// stream's marker) then body.
type shownLine struct {
	l      model.Line
	prefix string
	body   string // the line's text after its marker, with cut marks
	match  bool   // a grep match (not context)
	jsize  int    // bytes of its structured Line in JSON, with a comma (view.typed)
}

// size is the bytes of the line in the text, its newline included.
func (l shownLine) size() int { return 1 + len(l.prefix) + len(l.body) }

// rendered is a result: its text, its structured content, and the seqs of
// the complete lines it shows.
type rendered struct {
	text  string
	out   *Report
	shown []uint64
}

// pageCut is what a result leaves out of the page the core read: older
// units (skipped), newer ones (more, after a head read's cursor next).
type pageCut struct{ skipped, more, next uint64 }

// render words v within v.budget: it works out from sizes which lines to
// leave out (the oldest; with head, the newest), then writes the text
// once. The text fits the budget (ARCHITECTURE.md §5). When v.typed it
// makes the structured content too, fitted to the budget on its own: a
// client that shows its model one form gets the whole budget in it, so
// the JSON may leave out more of the lines than the text (each says which
// and gives the calls that read them), and the lines counted as shown
// are the JSON's, the fewer.
func render(v view) rendered {
	if !v.typed {
		return fit(v, false)
	}
	text := v
	text.typed = false
	t, j := fit(text, false), fit(v, true)
	return rendered{text: t.text, out: j.out, shown: j.shown}
}

// fit is render of one form: the text (v.typed false), or with jsonOnly
// the structured content, whose JSON alone is fitted to the budget.
func fit(v view, jsonOnly bool) rendered {
	p := v.rep.Page
	top := strings.Join(v.topLines(), "\n")
	lines := v.lines(p.Lines, false)
	partial := v.lines(p.Partial, true)
	cut := pageCut{skipped: p.Skipped, more: p.More, next: p.Next}
	notes, briefs := noteText(v.notes, v.now, v.budget/4, v.typed)
	if notes != "" {
		notes = "\n\n" + notes
	}
	for {
		calls, trailer := v.trailer(cut, lines)
		size := len(top) + linesSize(lines, v.groups()) + linesSize(partial, false) + len(notes)
		for _, t := range trailer {
			size += 1 + len(t)
		}
		var out *Report
		js := 0
		if v.typed {
			out = v.structured(nil, partial, cut, calls, briefs, len(v.notes)-len(briefs))
			js = jsonSize(out) + linesJSON(lines)
		}
		if jsonOnly {
			size = 0 // the text of this round is not the result's
		}
		if size <= v.budget && js <= v.budget || len(lines)+len(partial) == 0 {
			text := joinText(top, lines, partial, trailer, v.groups(), size) + notes
			if out != nil {
				out.Lines = structLines(lines)
			}
			seqs := make([]uint64, 0, len(lines))
			for _, l := range lines {
				seqs = append(seqs, l.l.Seq)
			}
			return rendered{text: text, out: out, shown: seqs}
		}
		if len(lines) == 0 || v.rep.Read.Head && len(partial) > 0 {
			partial = nil // the open lines are the newest
			continue
		}
		// Leave out lines, enough of them for the text and the JSON to
		// fit (a grep leaves out whole matches with the context lines that
		// were there for them alone); the next round checks.
		for over, jover := size-v.budget, js-v.budget; (over > 0 || jover > 0) && len(lines) > 0; {
			before, jbefore := linesSize(lines, v.groups()), linesJSON(lines)
			lines = v.drop(lines, &cut)
			over -= before - linesSize(lines, v.groups())
			if v.typed {
				jover -= jbefore - linesJSON(lines)
			}
		}
	}
}

// linesJSON is the bytes lines add to the structured content's JSON.
func linesJSON(ls []shownLine) int {
	n := 0
	for _, l := range ls {
		n += l.jsize
	}
	return n
}

// groups reports whether the text separates a grep's groups of lines
// with "--" (as grep -C does): with context only.
func (v view) groups() bool { return v.grep != "" && v.context > 0 }

// linesSize is the bytes of lines in the text, with "--" between lines
// that do not follow each other when grep is set.
func linesSize(ls []shownLine, grep bool) int {
	n := 0
	for i, l := range ls {
		n += l.size()
		if grep && i > 0 && l.l.Seq != ls[i-1].l.Seq+1 {
			n += 3
		}
	}
	return n
}

// topLines are the header and the notes above the output lines.
func (v view) topLines() []string {
	s, p := v.rep.Job, v.rep.Page
	cmdMax := maxShortCommand
	if v.full {
		cmdMax = maxFullCommand
	}
	lines := []string{header(s, v.now, cmdMax)}
	if v.lead != "" {
		lines = append([]string{v.lead}, lines...)
	}
	if s.Live() && s.PID > 0 && (v.full || v.kill) {
		// Where a user would stop it by hand: the start's report, and a
		// stop that did not finish.
		lines = append(lines, "pid "+strconv.Itoa(s.PID))
	}
	if s.Owner != "" && s.Owner != v.client {
		lines = append(lines, "started by "+plainString(model.OneLine(s.Owner, 0)))
	}
	if note := words.StopNote(s.Stop, v.client, v.now, v.found); note != "" {
		lines = append(lines, note)
	}
	if s.RestartOf != nil && v.lead == "" { // a restart's own report leads with it
		lines = append(lines, fmt.Sprintf("restart of job %d", *s.RestartOf))
	}
	if v.rerun != nil {
		lines = append(lines, fmt.Sprintf(`restarted as job %d (job_status {"id":%d} reads the new run)`, *v.rerun, *v.rerun))
	}
	if note := words.SignalNote(s); note != "" {
		lines = append(lines, note)
	}
	if s.Err != "" && s.State != model.StateFailed {
		lines = append(lines, "note: "+plainString(s.Err))
	}
	for _, n := range s.Notes {
		lines = append(lines, "note: "+plainString(n))
	}
	lines = append(lines, portLines(s)...)
	if w := v.rep.Wait; w != nil {
		ww := v.ww
		if m := w.Match; m != nil {
			for _, l := range append(p.Lines, p.Partial...) {
				same := m.Seq > 0 && l.Seq == m.Seq || m.Partial && l.Partial && string(l.Text) == string(m.Text)
				ww.inResult = ww.inResult || same
			}
		}
		lines = append(lines, waitNote(w, ww))
	}
	if g := v.rep.Read.Grep; g != nil {
		lines = append(lines, grepNote(v.grep, g.Matches, v.rep.Read))
	}
	if p.Dropped > 0 {
		lines = append(lines, fmt.Sprintf("[… %d lines dropped]", p.Dropped))
	}
	return lines
}

// lines renders output lines: "> text" or "! text", with "seq: " before a
// grep match and "seq- " before a context line.
func (v view) lines(ls []model.Line, partial bool) []shownLine {
	out := make([]shownLine, 0, len(ls))
	matched := map[uint64]bool{}
	if g := v.rep.Read.Grep; g != nil {
		for _, s := range g.Matched {
			matched[s] = true
		}
	}
	for _, l := range ls {
		body := lineBody(l)
		if partial {
			body += " [no newline yet]"
		}
		prefix := l.Stream.Marker()
		m := true
		if v.grep != "" && !partial {
			m = matched[l.Seq]
			sep := ": "
			if !m {
				sep = "- "
			}
			prefix = strconv.FormatUint(l.Seq, 10) + sep + prefix
		}
		sl := shownLine{l: l, prefix: prefix, body: body, match: m}
		if v.typed {
			sl.jsize = jsonSize(structLine(sl)) + 1
		}
		out = append(out, sl)
	}
	return out
}

// lineBody is a line's plain text with the marks of what was cut: "head
// [… 11.0 KiB cut] tail", "[… 47.7 MiB cut]" at the end.
func lineBody(l model.Line) string {
	var s string
	if l.Cut > 0 && l.CutAt <= len(l.Text) {
		s = sanitize.Plain(l.Text[:l.CutAt]) + " [… " + model.ByteSize(l.Cut) + " cut] " + sanitize.Plain(l.Text[l.CutAt:])
	} else {
		s = sanitize.Plain(l.Text)
	}
	if l.Dropped > 0 {
		s += " [… " + model.ByteSize(l.Dropped) + " cut]"
	}
	return s
}

// trailer is what ends the result: the calls that read what was left out
// (each the next range, not overlapping what this result shows), the
// cursor to read on, or "(no output)".
func (v view) trailer(cut pageCut, lines []shownLine) (calls []string, out []string) {
	s, p, info := v.rep.Job, v.rep.Page, v.rep.Read
	one, many := "line", "lines"
	if v.grep != "" {
		one, many = "match", "matches"
	}
	if cut.skipped > 0 {
		call := v.call(info.From, int(min(cut.skipped, model.MaxStatusLines)))
		calls = append(calls, call)
		out = append(out, fmt.Sprintf("[… %s not shown (earlier): %s]", model.Count(int(cut.skipped), one, many), call))
	}
	if cut.more > 0 {
		// The rest of the range asked for, or past it the next as many.
		shown := 0
		for _, l := range lines {
			if l.match {
				shown++
			}
		}
		head := v.head - shown
		if head <= 0 {
			head = v.head
		}
		call := v.call(cut.next, max(head, 1))
		calls = append(calls, call)
		out = append(out, fmt.Sprintf("[… %s more: %s]", model.Count(int(cut.more), one, many), call))
	}
	if len(lines) == 0 && len(p.Partial) == 0 && cut.skipped == 0 && v.grep == "" {
		switch {
		case v.kill && p.Last > 0:
			out = append(out, "(no new output)")
		case p.Last == 0 && s.Done:
			out = append(out, "(no output)")
		}
	}
	if cut.more == 0 && s.Live() {
		next := v.call(cut.next, 0)
		calls = append(calls, next)
		out = append(out, "[next: "+next+"]")
	}
	return calls, out
}

// call is the job_status call that reads on from since: head units of the
// read's grep, or (head 0) whatever is newer.
func (v view) call(since uint64, head int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `job_status {"id":%d`, v.rep.Job.ID)
	if v.grep != "" {
		b.WriteString(`,"grep":`)
		b.WriteString(jsonString(v.grep))
		if v.context > 0 {
			fmt.Fprintf(&b, `,"context":%d`, v.context)
		}
	}
	fmt.Fprintf(&b, `,"since":%d`, since)
	if head > 0 {
		fmt.Fprintf(&b, `,"head":%d`, head)
	}
	b.WriteString("}")
	return b.String()
}

// joinText puts the parts of a result together, size bytes; with grep
// (v.groups), "--" marks a gap between lines that do not follow each
// other.
func joinText(top string, lines, partial []shownLine, trailer []string, grep bool, size int) string {
	var b strings.Builder
	b.Grow(size)
	b.WriteString(top)
	for i, l := range lines {
		if grep && i > 0 && l.l.Seq != lines[i-1].l.Seq+1 {
			b.WriteString("\n--")
		}
		b.WriteByte('\n')
		b.WriteString(l.prefix)
		b.WriteString(l.body)
	}
	for _, l := range partial {
		b.WriteByte('\n')
		b.WriteString(l.prefix)
		b.WriteString(l.body)
	}
	for _, t := range trailer {
		b.WriteByte('\n')
		b.WriteString(t)
	}
	return b.String()
}
