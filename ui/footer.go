package ui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/jobdeck/jobdeck/ui/present"
)

// footerRows returns the footer's height: the palette's rows (its input,
// then its error or hint), or the status line (wrapped: statusRows) and
// the short (one row) or full help, with the recent messages under the
// full help.
func (m *Model) footerRows() int {
	if m.palette != nil {
		return 1 + len(m.palette.note(m.width, m.maxPaletteRows()))
	}
	n := 1
	if msg, _ := m.statusMessage(); m.confirm == nil && msg != "" {
		n = len(m.statusText(m.width))
	}
	if m.help.ShowAll {
		return n + strings.Count(m.helpView(), "\n") + 1 + len(m.recentRows(m.width))
	}
	return n + 1
}

// renderFooter draws the footer in w×h cells: the palette when it is open;
// else the status line (or a confirm question) above the help.
func (m *Model) renderFooter(w, h int) []string {
	out := make([]string, 0, h)
	if m.palette != nil {
		out = append(out, m.palette.view(m.st, w, m.maxPaletteRows())...)
	} else {
		if m.confirm != nil {
			out = append(out, m.st.Confirm.Render(fit(m.confirmQuestion(), w)))
		} else {
			out = append(out, m.statusRows(w)...)
		}
		for _, l := range strings.Split(m.helpView(), "\n") {
			out = append(out, fit(l, w))
		}
		if m.help.ShowAll {
			out = append(out, m.recentRows(w)...)
		}
	}
	for len(out) < h {
		out = append(out, spaces(w))
	}
	return out[:h]
}

// statusText is the status line's text in rows of at most w cells, and
// how each row is styled: the counts ("3/8 running · 2 finished", what is
// being stopped or restarted, who else is attached), then the message,
// wrapped onto more rows (at most maxMessageRows) rather than cut.
func (m *Model) statusText(w int) []styledRow {
	head := m.statusCounts()
	msg, st := m.statusMessage()
	if msg == "" {
		return []styledRow{{head: head, hs: &m.st.Status}}
	}
	more := " …"
	if k := m.keys.Help.Help().Key; k != "" {
		more = " … " + k + " shows all"
	}
	return wrapStatus(head, msg, more, &m.st.Status, st, w, m.maxMessageRows())
}

// statusRows draws the status line's rows, each exactly w cells.
func (m *Model) statusRows(w int) []string {
	rows := m.statusText(w)
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.render(w)
	}
	return out
}

// statusCounts is the status line's plain head: "3/8 running · 2
// finished", who else is attached, and what is being stopped or
// restarted.
func (m *Model) statusCounts() string {
	if m.lost != "" {
		// What ran is unknown now: no count would be true.
		return "session gone"
	}
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
	return b.String()
}

// statusMessage is what the status line says after the counts, and its
// style: a lost link, a failed fetch (the screen may be out of date: said
// before anything else), the followed job's live header, or the last
// message. Empty when there is none.
func (m *Model) statusMessage() (string, *lipgloss.Style) {
	switch {
	case m.lost != "":
		return m.lostLine(), &m.st.Error
	case m.linkErr != "":
		return m.linkErr, &m.st.Error
	case m.search != nil && m.message == "":
		return m.searchLine(), &m.st.Info
	case m.msgJob != nil:
		if j, ok := m.snapshot(*m.msgJob); ok {
			return present.Title(j, m.shownNow()), &m.st.Info
		}
		return "", &m.st.Info
	case m.msgErr:
		return m.message, &m.st.Error
	}
	return m.message, &m.st.Info
}

// confirmQuestion is the open question; the quit question counts the jobs
// still running now, not when it was asked.
func (m *Model) confirmQuestion() string {
	if m.confirm.kind == confirmQuit {
		if others := m.others(); len(others) > 0 {
			return others[0].Name + " attached meanwhile: y only detaches (every job keeps running), n stays"
		}
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

// helpView is the help's view (bubbles/help) for the keys in use, kept
// until the width, the full/short choice or a key's help changes: it is
// the same in every frame.
func (m *Model) helpView() string {
	key := helpKey{width: m.width, all: m.help.ShowAll, mouseOff: m.mouseOff}
	if m.helpCache.ok && m.helpCache.key == key {
		return m.helpCache.view
	}
	m.helpCache.key, m.helpCache.ok = key, true
	m.helpCache.view = m.help.View(m.keys)
	return m.helpCache.view
}

// helpKey is what the help's view depends on.
type helpKey struct {
	width    int
	all      bool
	mouseOff bool // the Mouse key's help words it
}
