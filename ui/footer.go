package ui

import (
	"strconv"
	"strings"
)

// footerRows returns the footer's height: the palette's two rows, or the
// status line and the short (one row) or full help.
func (m *Model) footerRows() int {
	if m.palette != nil {
		return 2
	}
	if m.help.ShowAll {
		return 1 + strings.Count(m.help.View(m.keys), "\n") + 1
	}
	return 2
}

// renderFooter draws the footer in w×h cells: the palette when it is open;
// else the status line (or a confirm question) above the help.
func (m *Model) renderFooter(w, h int) []string {
	out := make([]string, 0, h)
	if m.palette != nil {
		out = append(out, m.palette.view(m.st, w)...)
	} else {
		if m.confirm != nil {
			out = append(out, m.st.Confirm.Render(fit(m.confirmQuestion(), w)))
		} else {
			out = append(out, m.statusLine(w))
		}
		for _, l := range strings.Split(m.help.View(m.keys), "\n") {
			out = append(out, fit(l, w))
		}
	}
	for len(out) < h {
		out = append(out, spaces(w))
	}
	return out[:h]
}

// statusLine draws "3/8 running · 2 finished", what is being stopped, and
// the last message, in w cells.
func (m *Model) statusLine(w int) string {
	live := m.liveCount()
	var b strings.Builder
	if len(m.jobs) == 0 {
		b.WriteString("no jobs")
	} else {
		b.WriteString(strconv.Itoa(live) + "/" + strconv.Itoa(m.maxRunning) + " running · " +
			strconv.Itoa(len(m.jobs)-live) + " finished")
	}
	b.WriteString(m.withOthers())
	switch n := len(m.stopping); {
	case m.quitting:
		b.WriteString(" · stopping " + plural(n, "job") + " before quitting…")
	case n == 1:
		for id := range m.stopping {
			b.WriteString(" · stopping job " + id.String() + "…")
		}
	case n > 1:
		b.WriteString(" · stopping " + plural(n, "job") + "…")
	}
	b.WriteString(m.restartingNote())
	s := m.st.Status.Render(b.String())
	if m.lost != "" {
		return fit(s+"  "+m.st.Error.Render(m.lostLine()), w)
	}
	if m.linkErr != "" {
		// The screen may be out of date: say so before anything else.
		return fit(s+"  "+m.st.Error.Render(m.linkErr), w)
	}
	if m.msgJob != nil {
		for _, j := range m.jobs {
			if j.ID == *m.msgJob {
				s += "  " + m.st.Info.Render(j.Header(m.now()))
			}
		}
	} else if m.message != "" {
		st := m.st.Info
		if m.msgErr {
			st = m.st.Error
		}
		s += "  " + st.Render(m.message)
	}
	return fit(s, w)
}

// confirmQuestion is the open question; the quit question counts the jobs
// still running now, not when it was asked.
func (m *Model) confirmQuestion() string {
	if m.confirm.kind == confirmQuit {
		if n := max(m.liveCount(), len(m.stopping)); n > 0 {
			return "stop " + plural(n, "running job") + " and quit? y/n"
		}
		return "quit? y/n"
	}
	return m.confirm.question
}

// plural returns "1 job", "3 jobs".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
