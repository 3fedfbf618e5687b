package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ui/present"
)

// Wrapping long lines: with wrapping on (w), a pane shows each line whole,
// cut into rows of the pane's text width, instead of one row cut with
// "…". The job's colours carry over: each row opens the colours in force
// where it starts and closes them at its end.

// wrapStyled cuts s (text and SGR sequences only, as styledLine returns
// it) into rows of at most w cells, in one pass. A character that does
// not fit at the end of a row starts the next one. An empty s is one empty
// row.
func wrapStyled(s string, w int) []string {
	if w <= 0 {
		return []string{""}
	}
	if !strings.ContainsRune(s, ansi.ESC) && len(s) <= w && isASCII(s) {
		return []string{s} // the common short plain line: no decoding
	}
	var rows []string
	var b strings.Builder
	var open string // the SGR sequences in force (since the last reset)
	width := 0
	state := byte(0)
	flush := func() {
		if open != "" {
			b.WriteString(ansi.ResetStyle)
		}
		rows = append(rows, b.String())
		b.Reset()
		b.WriteString(open)
		width = 0
	}
	for len(s) > 0 {
		seq, cw, n, next := ansi.DecodeSequence(s, state, nil)
		state = next
		s = s[n:]
		if cw == 0 {
			if len(seq) > 1 && seq[0] == ansi.ESC && seq[len(seq)-1] == 'm' {
				open = nextOpen(open, seq)
			}
			b.WriteString(seq)
			continue
		}
		if width+cw > w && width > 0 {
			flush()
		}
		b.WriteString(seq)
		width += cw
	}
	rows = append(rows, b.String())
	return rows
}

// nextOpen returns the SGR sequences in force after seq: none after a
// reset, else open followed by seq.
func nextOpen(open, seq string) string {
	switch {
	case seq == "\x1b[m" || seq == "\x1b[0m":
		return ""
	case strings.HasPrefix(seq, "\x1b[0;"):
		return seq
	}
	return open + seq
}

// isReset reports whether the SGR sequence seq starts by resetting every
// attribute.
func isReset(seq string) bool {
	return seq == "\x1b[m" || seq == "\x1b[0m" || strings.HasPrefix(seq, "\x1b[0;")
}

// isASCII reports whether s is printable ASCII only (each byte one cell).
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// paneCells draws a wrapping pane's body: body cells of inner cells each.
// Each line takes as many cells as its text needs, and the cells kept are
// the last body ones while the pane follows (the newest line ends at the
// bottom) or the first body ones while it is paused (its top line starts
// at the top). (A pane that does not wrap draws its rows straight into the
// frame: renderPane.)
func (m *Model) paneCells(p paneView, win paneWindow, inner, body int) []string {
	cells := make([]string, 0, body)
	switch {
	case len(win.rows) == 0 && win.empty && body > 0:
		cells = append(cells, m.st.Dim.Render(fit("  "+present.NoOutput(p.snap.Live()), inner)))
	case p.top == 0:
		// Following: fill from the bottom up, newest line last.
		var rev [][]string
		n := 0
		for i := len(win.rows) - 1; i >= 0 && n < body; i-- {
			c := m.wrappedRow(win.rows[i], inner, p.hl)
			rev = append(rev, c)
			n += len(c)
		}
		for i := len(rev) - 1; i >= 0; i-- {
			cells = append(cells, rev[i]...)
		}
		if over := len(cells) - body; over > 0 {
			cells = cells[over:]
		}
	default:
		for _, r := range win.rows {
			if len(cells) >= body {
				break
			}
			cells = append(cells, m.wrappedRow(r, inner, p.hl)...)
		}
		cells = cells[:min(len(cells), body)]
	}
	for len(cells) < body {
		cells = append(cells, spaces(inner))
	}
	return cells
}

// wrappedRow draws one window row in cells of w cells each: the gutter
// ("!" for stderr) on its first cell, the line's text wrapped over as many
// as it needs.
func (m *Model) wrappedRow(r paneRow, w int, hl paneHL) []string {
	if r.dropped > 0 {
		return []string{m.renderRow(r, w)}
	}
	tw := w - 2
	text := hl.mark(styledLine(r.line.Text, m.st.NoColor), r.line.Seq)
	if r.line.Dropped > 0 {
		// The whole line shows, then the marker of what the ring cut.
		text += " " + m.st.rendered.droppedOpen + present.Cut(r.line.Dropped) + m.st.rendered.dropC
	}
	parts := wrapStyled(text, tw)
	out := make([]string, len(parts))
	for i, part := range parts {
		gutter := "  "
		if i == 0 && r.line.Stream == model.StreamErr {
			gutter = m.st.rendered.errMark + " "
		}
		out[i] = gutter + fit(part, tw)
	}
	return out
}

// overlayText is the text width of an overlay drawn in r: less its
// borders and the one-cell margin.
func overlayText(r rect) int { return max(r.w-3, 1) }

// rowsOf returns the rows line takes in an overlay of text width w: one,
// or with wrap as many as its text needs.
func (o *overlay) rowsOf(line string, w int) int {
	if !o.wrap {
		return 1
	}
	return len(wrapStyled(styledLine([]byte(line), true), w))
}

// maxTop is the last first line the overlay drawn in r scrolls to without
// wrap: the one from which its last line is on the last row.
func (o *overlay) maxTop(r rect) int {
	return max(len(o.lines)-max(r.h-2, 1), 0)
}

// A wrapped overlay scrolls by rows, not lines, so that a line taller
// than the overlay (a long command in a report) can be read to its end:
// top is the first line shown and sub the rows of it scrolled past.

// rowIndex returns, with wrap at text width w, the row the overlay starts
// at and the rows of all its lines.
func (o *overlay) rowIndex(w int) (pos, total int) {
	for i, l := range o.lines {
		n := o.rowsOf(l, w)
		switch {
		case i < o.top:
			pos += n
		case i == o.top:
			pos += min(o.sub, n-1)
		}
		total += n
	}
	return pos, total
}

// at returns the line and its row of wrapped row pos (text width w).
func (o *overlay) at(pos, w int) (top, sub int) {
	for i, l := range o.lines {
		n := o.rowsOf(l, w)
		if pos < n {
			return i, pos
		}
		pos -= n
	}
	return max(len(o.lines)-1, 0), 0
}

// position returns where the overlay drawn in r starts: its first line
// and, with wrap, the rows of it scrolled past; never past the place
// from which its last row is on the last one.
func (o *overlay) position(r rect) (top, sub int) {
	if !o.wrap {
		return clamp(o.top, 0, o.maxTop(r)), 0
	}
	rows, w := max(r.h-2, 1), overlayText(r)
	pos, total := o.rowIndex(w)
	return o.at(clamp(pos, 0, max(total-rows, 0)), w)
}

// scrollable reports whether the overlay drawn in r has more rows than
// it shows.
func (o *overlay) scrollable(r rect) bool {
	if !o.wrap {
		return o.maxTop(r) > 0
	}
	_, total := o.rowIndex(overlayText(r))
	return total > max(r.h-2, 1)
}

// scroll moves the overlay by d lines (by d rows with wrap), within what
// the overlay drawn in area a can show.
func (o *overlay) scroll(d int, a rect) {
	if !o.wrap {
		o.top, o.sub = clamp(o.top+d, 0, o.maxTop(a)), 0
		return
	}
	rows, w := max(a.h-2, 1), overlayText(a)
	pos, total := o.rowIndex(w)
	o.top, o.sub = o.at(clamp(pos+d, 0, max(total-rows, 0)), w)
}

// cells draws the overlay's body in r: r.h-2 cells of r.w-2 cells each,
// from its position on (its lines are plain text, reports never hold
// escapes, but they may hold tabs).
func (o *overlay) cells(r rect, hl paneHL) []string {
	rows, inner, w := r.h-2, r.w-2, overlayText(r)
	cells := make([]string, 0, rows)
	top, sub := o.position(r)
	for j := top; j < len(o.lines) && len(cells) < rows; j++ {
		text := hl.mark(styledLine([]byte(o.lines[j]), true), uint64(j+1))
		if !o.wrap {
			cells = append(cells, fit(" "+text, inner))
			continue
		}
		parts := wrapStyled(text, w)
		if j == top {
			parts = parts[min(sub, len(parts)-1):]
		}
		for _, part := range parts {
			if len(cells) < rows {
				cells = append(cells, fit(" "+part, inner))
			}
		}
	}
	for len(cells) < rows {
		cells = append(cells, spaces(inner))
	}
	return cells
}
