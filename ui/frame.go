package ui

import (
	"cmp"
	"slices"

	"github.com/charmbracelet/x/ansi"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ui/present"
)

// The frame: every part of the screen (the list, each pane, the footer) is
// a rect and a way to draw its rows, and compose writes the screen row by
// row, parts in x order, into one buffer the model keeps from frame to
// frame. A pane's body rows are written straight into it (no string per
// row), so a frame costs a few allocations per pane, not per line.

// screenPart is a part of the screen: a rect and its rows, given as lines or
// drawn by line (row i appended to dst); exactly r.h rows of r.w cells.
type screenPart struct {
	r     rect
	lines []string
	line  func(dst []byte, i int) []byte
}

// compose appends the screen's height rows to dst, "\n" between them, each
// row made of the parts that cover it in x order, and returns dst and the
// offset in it where row footY starts (len(dst) when no row does).
func compose(dst []byte, height int, parts []screenPart, footY int) ([]byte, int) {
	slices.SortStableFunc(parts, func(a, b screenPart) int { return cmp.Compare(a.r.x, b.r.x) })
	foot := -1
	for y := range height {
		if y > 0 {
			dst = append(dst, '\n')
		}
		if y == footY {
			foot = len(dst)
		}
		for _, p := range parts {
			i := y - p.r.y
			if i < 0 || i >= p.r.h {
				continue
			}
			switch {
			case p.line != nil:
				dst = p.line(dst, i)
			case i < len(p.lines):
				dst = append(dst, p.lines[i]...)
			}
		}
	}
	if foot < 0 {
		foot = len(dst)
	}
	return dst, foot
}

// blank is a run of spaces that padding slices instead of allocating.
var blank = func() string {
	b := make([]byte, 1024)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}()

// appendSpaces appends n spaces (none for n ≤ 0).
func appendSpaces(dst []byte, n int) []byte {
	for n > 0 {
		k := min(n, len(blank))
		dst = append(dst, blank[:k]...)
		n -= k
	}
	return dst
}

// plainASCII reports whether s is printable ASCII only: one cell a byte,
// no escape.
func plainASCII[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// appendFit appends s (text and SGR sequences) cut with "…" or padded with
// spaces to exactly w cells, as fit does: a cut keeps every escape
// sequence after it, so the colours end as they would have.
func appendFit[T string | []byte](dst []byte, s T, w int) []byte {
	if w <= 0 {
		return dst
	}
	if plainASCII(s) {
		if len(s) <= w {
			return appendSpaces(append(dst, s...), w-len(s))
		}
		return append(append(dst, s[:w-1]...), "…"...)
	}
	if sw := styledWidth(s); sw <= w {
		return appendSpaces(append(dst, s...), w-sw)
	}
	width, cut := 0, false
	state := byte(0)
	for len(s) > 0 {
		seq, cw, n, next := ansi.DecodeSequence(s, state, nil)
		state = next
		s = s[n:]
		switch {
		case cw == 0:
			if cut && (len(seq) == 0 || seq[0] != ansi.ESC) {
				continue // text after the cut; its escapes are kept
			}
			dst = append(dst, seq...)
		case cut:
		case width+cw > w-1:
			cut = true
			dst = append(dst, "…"...)
			dst = appendSpaces(dst, w-1-width)
		default:
			dst = append(dst, seq...)
			width += cw
		}
	}
	return dst
}

// styledWidth is the width of s in cells, as ansi.StringWidth counts it,
// without converting s.
func styledWidth[T string | []byte](s T) int {
	width := 0
	state := byte(0)
	for len(s) > 0 {
		_, cw, n, next := ansi.DecodeSequence(s, state, nil)
		state = next
		s = s[n:]
		width += cw
	}
	return width
}

// appendRow appends one window row in w cells: a two-cell gutter ("!" for
// stderr) and the sanitised line, as renderRow draws it. scratch is the
// model's buffer for the sanitised text.
func (m *Model) appendRow(dst []byte, r paneRow, w int, hl paneHL) []byte {
	tw := w - 2
	if r.dropped > 0 {
		dst = append(dst, "  "...)
		dst = append(dst, m.st.rendered.droppedOpen...)
		dst = appendFit(dst, present.Dropped(r.dropped), tw)
		return append(dst, m.st.rendered.dropC...)
	}
	if r.line.Stream == model.StreamErr {
		dst = append(dst, m.st.rendered.errMark...)
		dst = append(dst, ' ')
	} else {
		dst = append(dst, "  "...)
	}
	if r.line.Dropped > 0 {
		// A line the ring cut at its limit ends with the marker, kept
		// in view however long the line is (ARCHITECTURE.md §5).
		note := " " + present.Cut(r.line.Dropped)
		if nw := ansi.StringWidth(note); tw > nw+4 {
			dst = appendFit(dst, hl.mark(styledLine(r.line.Text, m.st.NoColor), r.line.Seq), tw-nw)
			dst = append(dst, m.st.rendered.droppedOpen...)
			dst = append(dst, note...)
			return append(dst, m.st.rendered.dropC...)
		}
	}
	if hl.re != nil {
		return appendFit(dst, hl.mark(styledLine(r.line.Text, m.st.NoColor), r.line.Seq), tw)
	}
	if plainASCII(r.line.Text) {
		return appendFit(dst, r.line.Text, tw)
	}
	m.scratch = sanitize.AppendStyled(m.scratch[:0], r.line.Text)
	if m.st.NoColor && slices.Contains(m.scratch, ansi.ESC) {
		return appendFit(dst, ansi.Strip(string(m.scratch)), tw)
	}
	return appendFit(dst, m.scratch, tw)
}
