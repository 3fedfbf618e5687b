package ui

import (
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Status messages are never cut at the screen's edge: a long one wraps
// onto more footer rows (at most maxMessageRows; the panes give way), and
// the full help (?) lists the last few in full.

// recentMessages is how many status messages the full help lists.
const recentMessages = 5

// logged is a status message as it was shown.
type logged struct {
	at    time.Time
	text  string
	isErr bool
}

// logMessage keeps text for the full help's list of recent messages (a
// repeat of the newest one is kept once).
func (m *Model) logMessage(text string, isErr bool) {
	if text == "" {
		return
	}
	if n := len(m.recent); n > 0 && m.recent[n-1].text == text {
		m.recent[n-1].at = m.now()
		return
	}
	m.recent = append(m.recent, logged{at: m.now(), text: text, isErr: isErr})
	if len(m.recent) > recentMessages {
		m.recent = m.recent[len(m.recent)-recentMessages:]
	}
}

// maxMessageRows is the most rows a status message takes: two, three
// from 40 rows, four from 56.
func (m *Model) maxMessageRows() int { return clamp((m.height-MinHeight)/8, 2, 4) }

// maxPaletteRows is the most rows a palette error takes under the input:
// a quarter of the screen (the palette cannot show the full help).
func (m *Model) maxPaletteRows() int { return max(m.maxMessageRows(), m.height/4) }

// recentRows are the full help's rows of recent messages, oldest first,
// each in full (wrapped to w cells) with the time it was shown; none
// before the first message.
func (m *Model) recentRows(w int) []string {
	if len(m.recent) == 0 {
		return nil
	}
	out := []string{m.st.Dim.Render(fit("recent messages:", w))}
	for _, l := range m.recent {
		st := m.st.Info
		if l.isErr {
			st = m.st.Error
		}
		stamp := l.at.Format("15:04:05") + " "
		for i, row := range wrapText(l.text, w-len(stamp), w-len(stamp), 0) {
			lead := spaces(len(stamp))
			if i == 0 {
				lead = stamp
			}
			out = append(out, fit(m.st.Dim.Render(lead)+st.Render(row), w))
		}
	}
	return out
}

// styledRow is one status row: a head in one style, then a body in
// another, two spaces apart.
type styledRow struct {
	head, body string
	hs, bs     *lipgloss.Style // into the model's Styles: no copies per frame
}

// render draws the row in exactly w cells.
func (r styledRow) render(w int) string {
	s := ""
	if r.head != "" {
		s = r.hs.Render(r.head)
		if r.body != "" {
			s += "  "
		}
	}
	if r.body != "" {
		s += r.bs.Render(r.body)
	}
	return fit(s, w)
}

// wrapStatus lays out the status line's head and message in rows of w
// cells: the message starts beside the head (on the next row when the
// head leaves it too little room) and wraps at spaces; past maxRows the
// last row is cut and ends with more ("… ? shows all").
func wrapStatus(head, msg, more string, hs, bs *lipgloss.Style, w, maxRows int) []styledRow {
	hw := ansi.StringWidth(head)
	first := w - hw - 2
	if first < min(20, w/3) {
		first = 0 // too little room beside the head: the message starts below
	}
	rows := wrapText(msg, first, w, 0)
	if len(rows) > maxRows {
		last := strings.Join(rows[maxRows-1:], " ")
		lw := w
		if maxRows == 1 {
			lw = first
		}
		rows = append(rows[:maxRows-1], strings.TrimRight(ansi.Truncate(last, max(lw-ansi.StringWidth(more), 1), ""), " ")+more)
	}
	out := make([]styledRow, 0, len(rows)+1)
	if first == 0 {
		out = append(out, styledRow{head: head, hs: hs})
		rows = rows[1:]
	} else {
		out = append(out, styledRow{head: head, body: rows[0], hs: hs, bs: bs})
		rows = rows[1:]
	}
	for _, r := range rows {
		out = append(out, styledRow{body: r, bs: bs})
	}
	return out
}

// wrapText wraps plain text at spaces: a first row of first cells (zero:
// an empty first row), then rows of rest cells; a word longer than a row
// is broken. With maxRows > 0, rows past it are cut: the last kept row
// ends with "…".
func wrapText(s string, first, rest, maxRows int) []string {
	var rows []string
	width := first
	var line strings.Builder
	lw := 0
	flush := func() {
		rows = append(rows, line.String())
		line.Reset()
		lw = 0
		width = rest
	}
	if width <= 0 {
		flush()
	}
	for i, word := range strings.Split(s, " ") {
		ww := ansi.StringWidth(word)
		switch {
		case i == 0 || lw == 0:
		case lw+1+ww <= width:
			line.WriteByte(' ')
			lw++
		default:
			flush()
		}
		for lw+ww > width && width > 0 {
			// Too long for any row: break it.
			part := ansi.Truncate(word, width-lw, "")
			if part == "" {
				flush()
				continue
			}
			line.WriteString(part)
			word = ansi.TruncateLeft(word, ansi.StringWidth(part), "")
			ww = ansi.StringWidth(word)
			flush()
		}
		line.WriteString(word)
		lw += ww
	}
	rows = append(rows, line.String())
	if maxRows > 0 && len(rows) > maxRows {
		last := strings.Join(rows[maxRows-1:], " ")
		w := first
		if maxRows > 1 {
			w = rest
		}
		rows = append(rows[:maxRows-1], ansi.Truncate(last, w, "…"))
	}
	return rows
}
