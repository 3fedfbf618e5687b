package ui

import (
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ui/present"
)

// confirmKind says what a confirm dialog is about.
type confirmKind uint8

const (
	confirmKill    confirmKind = iota + 1 // stop one job
	confirmQuit                           // stop every job and quit
	confirmRestart                        // restart one running job
)

// confirm is a yes/no question in the status line. Yes does it; any other
// key cancels.
type confirm struct {
	kind     confirmKind
	question string
	job      model.JobID // confirmKill, confirmRestart
}

// overlay is a scrollable box over the pane area: a job's full report
// (/job-status) or the help (/help).
type overlay struct {
	title string
	lines []string
	top   int          // index of the first line shown
	sub   int          // with wrap: rows of line top scrolled past (wrap.go)
	job   *model.JobID // the job of a /job-status report (kept current); nil for help
	// report is the /job-status report the lines word (nil for help):
	// the clock words it again (tickOverlay).
	report *model.Report
	wrap   bool // long lines wrap onto more rows (w)
}

// newOverlay builds an overlay from plain text.
func newOverlay(title, text string) *overlay {
	text = strings.TrimRight(text, "\n")
	return &overlay{title: title, lines: strings.Split(text, "\n")}
}

// reportOverlay builds the /job-status overlay of a report: its lines as
// of now, and the run that replaced the job when the list has one.
func (m *Model) reportOverlay(r model.Report) *overlay {
	id := r.Job.ID
	o := &overlay{title: "job-status " + r.Job.Label(), job: &id, report: &r}
	o.lines = m.reportLines(r)
	return o
}

// reportLines words report r for the overlay at the clock shown now.
func (m *Model) reportLines(r model.Report) []string {
	now := m.shownNow()
	lines := present.Report(r, m.owner, now)
	for _, s := range m.jobs {
		if s.RestartOf != nil && *s.RestartOf == r.Job.ID {
			at := min(1+len(present.Details(r.Job, now)), len(lines))
			lines = slices.Insert(lines, at, present.RestartedAs(s.ID))
			break
		}
	}
	return lines
}

// tickOverlay words the open report again at the clock shown now, so its
// elapsed time (and a stop's "ago") moves while nothing new is fetched.
func (m *Model) tickOverlay() {
	if o := m.overlay; o != nil && o.report != nil {
		o.lines = m.reportLines(*o.report)
	}
}

// renderOverlay draws o into r. Its lines are plain text (reports never
// hold escapes), cut to the width.
func (m *Model) renderOverlay(o *overlay, r rect) []string {
	out := make([]string, 0, r.h)
	if r.h < 2 || r.w < 4 {
		for range r.h {
			out = append(out, spaces(r.w))
		}
		return out
	}
	b := lipgloss.ThickBorder()
	out = append(out, frameTop(b, m.st.rendered.borderFocS, m.st.rendered.titleFocS, o.title, "", r.w))
	var hl paneHL
	if s := m.search; s != nil && s.overlay {
		hl = paneHL{s.re, s.cur}
	}
	for _, cell := range o.cells(r, hl) {
		out = append(out, m.st.rendered.borderFL+cell+m.st.rendered.borderFoc)
	}
	note := "Esc closes"
	if o.scrollable(r) {
		note = "PgUp/PgDn scroll · Esc closes"
	}
	if o.wrap {
		note = "wrap · " + note
	}
	out = append(out, frameBottom(b, m.st.rendered.borderFocS, note, r.w))
	return out
}
