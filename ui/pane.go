package ui

import (
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ui/present"
)

// A pane tails one job. Its window is fetched from the core with the rest
// of the screen (fetch.go): the newest lines while following, or the lines
// from a cursor (the seq of its top line) while scrolled up. The ring is
// the scrollback; the model keeps only each pane's window and cursor.

// paneRow is one row of a pane's window: a line (complete or the open
// partial one), or the marker for lines the ring evicted.
type paneRow struct {
	line    *model.Line // into the page it was read from (nil for a marker)
	dropped uint64      // > 0: a "[… N lines dropped]" marker
}

// paneWindow is what a pane shows.
type paneWindow struct {
	rows []paneRow
	// newer counts complete lines below the window (scrolled up only).
	newer uint64
	// empty reports that the job printed nothing yet.
	empty bool
	// evicted reports that the ring evicted lines this paused pane was on
	// (ARCHITECTURE.md §4): the window is the one it had before (held), or
	// starts at the oldest line still held (anchor).
	evicted bool
	// anchor, when not zero, is the seq a paused pane whose top line was
	// evicted moves its cursor to: the oldest line this window shows, so
	// that it stays on those lines from now on instead of drifting with
	// the ring's oldest line.
	anchor uint64
	// key is what the window was read for (zero: nothing was read).
	key windowKey
}

// windowKey says what a window was read for: the pane's read and its
// job's output so far. A window whose key is unchanged would read the
// same, so a fetch keeps it instead of reading it again.
type windowKey struct {
	req   paneReq
	lines uint64 // the job's last complete line
	bytes int64  // every byte the job printed (a partial line moves it too)
}

// keyOf is the key of pane r's window for job s as listed.
func keyOf(r paneReq, s model.Snapshot) windowKey {
	return windowKey{req: r, lines: s.Lines, bytes: s.Bytes}
}

// windowRead is the read that fills pane r: the newest r.rows lines while
// it follows (r.top is zero), else the r.rows lines from seq r.top on.
func windowRead(r paneReq) model.ReadRequest {
	if r.top == 0 {
		return model.ReadRequest{Tail: true, Limit: r.rows}
	}
	return model.ReadRequest{After: r.top - 1, Limit: r.rows}
}

// windowOf builds pane r's window from the page windowRead(r) returned. A
// marker row stands where the ring evicted lines the window would show
// before them.
func windowOf(r paneReq, page model.Page) paneWindow {
	n, top := r.rows, r.top
	var w paneWindow
	if n <= 0 {
		return w
	}
	rows := make([]paneRow, 0, len(page.Lines)+len(page.Partial)+1)
	if top == 0 {
		// The window reaches back to the ring's oldest line: say what the
		// ring no longer has before it.
		if page.Skipped == 0 && page.Dropped > 0 {
			rows = append(rows, paneRow{dropped: page.Dropped})
		}
		for i := range page.Lines {
			rows = append(rows, paneRow{line: &page.Lines[i]})
		}
		for i := range page.Partial {
			rows = append(rows, paneRow{line: &page.Partial[i]})
		}
		if len(rows) > n {
			rows = rows[len(rows)-n:]
		}
		w.rows = rows
		w.empty = page.Last == 0 && len(page.Partial) == 0 && page.Dropped == 0
		return w
	}
	if page.Dropped > 0 {
		rows = append(rows, paneRow{dropped: page.Dropped})
	}
	for i := range page.Lines {
		rows = append(rows, paneRow{line: &page.Lines[i]})
	}
	if page.More == 0 {
		for i := range page.Partial {
			rows = append(rows, paneRow{line: &page.Partial[i]})
		}
	}
	if len(rows) > n {
		rows = rows[:n]
	}
	w.rows = rows
	var last uint64
	for _, r := range rows {
		if r.dropped == 0 && !r.line.Partial {
			last = r.line.Seq
		}
	}
	if last == 0 {
		last = top - 1
	}
	if page.Last > last {
		w.newer = page.Last - last
	}
	return w
}

// held is the window of paused pane k.req when the ring evicted its top
// line (page.Dropped): the pane stays on what it showed before (prev, read
// for the same pane) rather than drifting with the ring's oldest line, and
// says the lines were evicted; without such a window, w (read from the
// oldest line held) is anchored there. A paused pane whose lines are held
// keeps w, and the note that it was evicted once (prev.evicted).
func held(w paneWindow, k windowKey, page model.Page, prev paneWindow, hadPrev bool) paneWindow {
	if k.req.top == 0 {
		return w
	}
	same := hadPrev && prev.key.req == k.req
	if page.Dropped == 0 {
		w.evicted = same && prev.evicted
		return w
	}
	if same && prev.shows() {
		prev.key, prev.evicted, prev.anchor = k, true, 0
		if last := prev.lastSeq(); page.Last > last {
			prev.newer = page.Last - last
		}
		return prev
	}
	w.evicted = true
	for _, r := range w.rows {
		if r.line != nil && !r.line.Partial {
			w.anchor = r.line.Seq
			break
		}
	}
	return w
}

// shows reports whether the window shows any complete line.
func (w paneWindow) shows() bool { return w.lastSeq() > 0 }

// lastSeq is the seq of the newest complete line the window shows (0:
// none).
func (w paneWindow) lastSeq() uint64 {
	for i := len(w.rows) - 1; i >= 0; i-- {
		if l := w.rows[i].line; l != nil && !l.Partial {
			return l.Seq
		}
	}
	return 0
}

// paneView describes one pane to render.
type paneView struct {
	snap    model.Snapshot
	num     int    // 1-based pane number (focus key)
	top     uint64 // scroll cursor; zero = following
	focused bool
	zoomed  bool
	wrap    bool   // long lines wrap onto more rows (w)
	hl      paneHL // the active search's highlight, if it searches this job
}

// renderPane draws pane p into r: a frame whose title is the job's report
// header with its listening ports (present.Title), the job's lines
// (stderr marked with a tinted "!", colours kept), and a bottom edge that
// says when the pane is paused, zoomed or wrapped: exactly r.h rows of
// exactly r.w cells. Its body rows are drawn straight into the frame
// (paneLine) unless it wraps.
func (m *Model) renderPane(p paneView, r rect) screenPart {
	if r.w < 4 || r.h < 2 {
		out := make([]string, 0, r.h)
		for range r.h {
			out = append(out, spaces(r.w))
		}
		return screenPart{r: r, lines: out}
	}
	b, bst, tst := lipgloss.RoundedBorder(), m.st.rendered.borderS, m.st.rendered.titleS
	vl, vr := m.st.rendered.borderL, m.st.rendered.border
	if p.focused {
		b, bst, tst = lipgloss.ThickBorder(), m.st.rendered.borderFocS, m.st.rendered.titleFocS
		vl, vr = m.st.rendered.borderFL, m.st.rendered.borderFoc
	}
	top := frameTop(b, bst, tst, present.Title(p.snap, m.shownNow()), strconv.Itoa(p.num), r.w)
	win := m.windows[p.snap.ID] // as last fetched
	bottom := frameBottom(b, bst, present.PaneNote(p.top > 0, p.top > 0 && win.evicted, win.newer, p.zoomed, p.wrap), r.w)
	inner, body := r.w-2, r.h-2
	if p.wrap {
		out := make([]string, 0, r.h)
		out = append(out, top)
		for _, cell := range m.paneCells(p, win, inner, body) {
			out = append(out, vl+cell+vr)
		}
		return screenPart{r: r, lines: append(out, bottom)}
	}
	live := p.snap.Live()
	return screenPart{r: r, line: func(dst []byte, i int) []byte {
		switch {
		case i == 0:
			return append(dst, top...)
		case i == r.h-1:
			return append(dst, bottom...)
		}
		dst = append(dst, vl...)
		switch j := i - 1; {
		case j < len(win.rows):
			dst = m.appendRow(dst, win.rows[j], inner, p.hl)
		case j == 0 && win.empty:
			dst = append(dst, m.st.rendered.dimS.wrap(fit("  "+present.NoOutput(live), inner))...)
		default:
			dst = appendSpaces(dst, inner)
		}
		return append(dst, vr...)
	}}
}

// renderRow draws one window row into w cells: a two-cell gutter ("!" for
// stderr) and the sanitised line.
func (m *Model) renderRow(r paneRow, w int) string {
	tw := w - 2
	if r.dropped > 0 {
		return "  " + m.st.rendered.droppedOpen + fit(present.Dropped(r.dropped), tw) + m.st.rendered.dropC
	}
	s := fit(styledLine(r.line.Text, m.st.NoColor), tw)
	if r.line.Stream == model.StreamErr {
		// The tinted mark says stderr; the text keeps the job's own
		// colours (routine stderr logging is not an error).
		return m.st.rendered.errMark + " " + s
	}
	return "  " + s
}

// frameTop draws a frame's top edge, w cells wide, with a title on the left
// and a tag (the pane number) on the right: "╭─ title ─────── 1 ─╮".
func frameTop(b lipgloss.Border, bst, tst sgr, title, tag string, w int) string {
	if w < 2 {
		return spaces(w)
	}
	fixed := 2 + 1 // corners and the first rule
	tagPart := ""
	if tag != "" {
		tagPart = " " + tag + " " + b.Top
	}
	tagW := ansi.StringWidth(tagPart)
	avail := w - fixed - tagW - 2 // spaces around the title
	if avail < 1 || title == "" {
		return bst.wrap(b.TopLeft + strings.Repeat(b.Top, w-2) + b.TopRight)
	}
	t := strings.TrimRight(fit(title, avail), " ")
	fill := w - fixed - tagW - 2 - ansi.StringWidth(t)
	var sb strings.Builder
	sb.Grow(3*w + 64)
	sb.WriteString(bst.wrap(b.TopLeft + b.Top + " "))
	sb.WriteString(tst.wrap(t))
	sb.WriteString(bst.open)
	sb.WriteString(" ")
	for range max(fill, 0) {
		sb.WriteString(b.Top)
	}
	sb.WriteString(tagPart)
	sb.WriteString(b.TopRight)
	sb.WriteString(bst.close)
	return sb.String()
}

// frameBottom draws a frame's bottom edge, w cells wide, with an optional
// note on the left: "╰─ paused · End follows ────╯".
func frameBottom(b lipgloss.Border, bst sgr, note string, w int) string {
	if w < 2 {
		return spaces(w)
	}
	avail := w - 2 - 1 - 2
	var sb strings.Builder
	sb.Grow(3*w + 32)
	sb.WriteString(bst.open)
	sb.WriteString(b.BottomLeft)
	fill := w - 2
	if note != "" && avail >= 4 {
		n := strings.TrimRight(fit(note, avail), " ")
		sb.WriteString(b.Bottom + " " + n + " ")
		fill = w - 2 - 1 - 2 - ansi.StringWidth(n)
	}
	for range max(fill, 0) {
		sb.WriteString(b.Bottom)
	}
	sb.WriteString(b.BottomRight)
	sb.WriteString(bst.close)
	return sb.String()
}
