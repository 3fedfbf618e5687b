package ui

import (
	"context"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

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
	line    model.Line
	dropped uint64 // > 0: a "[… N lines dropped]" marker
}

// paneWindow is what a pane shows.
type paneWindow struct {
	rows []paneRow
	// newer counts complete lines below the window (scrolled up only).
	newer uint64
	// empty reports that the job printed nothing yet.
	empty bool
}

// readWindow reads the rows of a pane from the core: the newest r.rows
// when r.top is zero (following), else the ones from seq r.top on. A marker
// row stands where the ring evicted lines the window would show before
// them. The error is the core's (a dropped job, a lost link).
func readWindow(ctx context.Context, core Core, r paneReq) (paneWindow, error) {
	id, n, top := r.id, r.rows, r.top
	if n <= 0 {
		return paneWindow{}, nil
	}
	var w paneWindow
	if top == 0 {
		page, err := core.Read(ctx, id, model.ReadRequest{Tail: true, Limit: n})
		if err != nil {
			return w, err
		}
		rows := make([]paneRow, 0, len(page.Lines)+len(page.Partial)+1)
		// The window reaches back to the ring's oldest line: say what the
		// ring no longer has before it.
		if page.Skipped == 0 && page.Dropped > 0 {
			rows = append(rows, paneRow{dropped: page.Dropped})
		}
		for _, l := range page.Lines {
			rows = append(rows, paneRow{line: l})
		}
		for _, l := range page.Partial {
			rows = append(rows, paneRow{line: l})
		}
		if len(rows) > n {
			rows = rows[len(rows)-n:]
		}
		w.rows = rows
		w.empty = page.Last == 0 && len(page.Partial) == 0 && page.Dropped == 0
		return w, nil
	}
	page, err := core.Read(ctx, id, model.ReadRequest{After: top - 1, Limit: n})
	if err != nil {
		return w, err
	}
	rows := make([]paneRow, 0, len(page.Lines)+len(page.Partial)+1)
	if page.Dropped > 0 {
		rows = append(rows, paneRow{dropped: page.Dropped})
	}
	for _, l := range page.Lines {
		rows = append(rows, paneRow{line: l})
	}
	if page.More == 0 {
		for _, l := range page.Partial {
			rows = append(rows, paneRow{line: l})
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
	return w, nil
}

// paneView describes one pane to render.
type paneView struct {
	snap    model.Snapshot
	num     int    // 1-based pane number (focus key)
	top     uint64 // scroll cursor; zero = following
	focused bool
	zoomed  bool
	wrap    bool // long lines wrap onto more rows (w)
}

// renderPane draws pane p into r: a frame whose title is the job's report
// header with its listening ports (present.Title), the job's lines (stderr marked with a tinted "!", colours kept), and
// a bottom edge that says when the pane is paused or zoomed. It returns
// exactly r.h rows of exactly r.w cells.
func (m *Model) renderPane(p paneView, r rect) []string {
	out := make([]string, 0, r.h)
	if r.w < 4 || r.h < 2 {
		for range r.h {
			out = append(out, spaces(r.w))
		}
		return out
	}
	b, bst, tst := lipgloss.RoundedBorder(), m.st.Border, m.st.Title
	vl, vr := m.st.paint.borderL, m.st.paint.border
	if p.focused {
		b, bst, tst = lipgloss.ThickBorder(), m.st.BorderFocus, m.st.TitleFocus
		vl, vr = m.st.paint.borderFL, m.st.paint.borderFoc
	}
	out = append(out, frameTop(b, bst, tst, present.Title(p.snap, m.shownNow()), strconv.Itoa(p.num), r.w))

	inner := r.w - 2
	body := r.h - 2
	win := m.windows[p.snap.ID] // as last fetched
	for _, cell := range m.paneCells(p, win, inner, body) {
		out = append(out, vl+cell+vr)
	}

	out = append(out, frameBottom(b, bst, present.PaneNote(p.top > 0, win.newer, p.zoomed, p.wrap), r.w))
	return out
}

// renderRow draws one window row into w cells: a two-cell gutter ("!" for
// stderr) and the sanitised line.
func (m *Model) renderRow(r paneRow, w int) string {
	tw := w - 2
	if r.dropped > 0 {
		return "  " + m.st.paint.droppedOpen + fit(present.Dropped(r.dropped), tw) + m.st.paint.dropC
	}
	s := fit(styledLine(r.line.Text, m.st.NoColor), tw)
	if r.line.Stream == model.StreamErr {
		// The tinted mark says stderr; the text keeps the job's own
		// colours (routine stderr logging is not an error).
		return m.st.paint.errMark + " " + s
	}
	return "  " + s
}

// frameTop draws a frame's top edge, w cells wide, with a title on the left
// and a tag (the pane number) on the right: "╭─ title ─────── 1 ─╮".
func frameTop(b lipgloss.Border, bst, tst lipgloss.Style, title, tag string, w int) string {
	if w < 2 {
		return spaces(w)
	}
	var sb strings.Builder
	fixed := 2 + 1 // corners and the first rule
	tagPart := ""
	if tag != "" {
		tagPart = " " + tag + " " + b.Top
	}
	tagW := lipgloss.Width(tagPart)
	avail := w - fixed - tagW - 2 // spaces around the title
	if avail < 1 || title == "" {
		sb.WriteString(bst.Render(b.TopLeft + strings.Repeat(b.Top, w-2) + b.TopRight))
		return sb.String()
	}
	t := fit(title, avail)
	t = strings.TrimRight(t, " ")
	fill := w - fixed - tagW - 2 - lipgloss.Width(t)
	sb.WriteString(bst.Render(b.TopLeft + b.Top + " "))
	sb.WriteString(tst.Render(t))
	sb.WriteString(bst.Render(" " + strings.Repeat(b.Top, max(fill, 0)) + tagPart + b.TopRight))
	return sb.String()
}

// frameBottom draws a frame's bottom edge, w cells wide, with an optional
// note on the left: "╰─ paused · End follows ────╯".
func frameBottom(b lipgloss.Border, bst lipgloss.Style, note string, w int) string {
	if w < 2 {
		return spaces(w)
	}
	avail := w - 2 - 1 - 2
	if note == "" || avail < 4 {
		return bst.Render(b.BottomLeft + strings.Repeat(b.Bottom, w-2) + b.BottomRight)
	}
	n := strings.TrimRight(fit(note, avail), " ")
	fill := w - 2 - 1 - 2 - lipgloss.Width(n)
	return bst.Render(b.BottomLeft + b.Bottom + " " + n + " " + strings.Repeat(b.Bottom, max(fill, 0)) + b.BottomRight)
}
