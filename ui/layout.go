package ui

import "math"

// The console's layout: pure functions of the terminal size, the number of
// jobs and panes, and the footer's height. Widths and heights are in
// terminal cells; a terminal cell is about twice as tall as it is wide,
// which decides whether an area is "wide".

const (
	// MinWidth and MinHeight are the smallest terminal the console draws
	// in; below them it shows a plain "terminal too small" message.
	MinWidth, MinHeight = 40, 12
	// sideListWidth is the terminal width from which the job list sits
	// beside the panes instead of above them.
	sideListWidth = 110
	// MaxPanes is the most tailing panes shown at once.
	MaxPanes = 8
)

// rect is an area of the screen: column x, row y, w columns, h rows.
type rect struct{ x, y, w, h int }

// screenLayout is where the parts of the screen go.
type screenLayout struct {
	list   rect // the job list (zero when zoomed)
	panes  rect // the pane area (the overlay uses it too)
	footer rect
	side   bool // the list is beside the panes, not above them
}

// tooSmall reports whether a w×h terminal is below the minimum.
func tooSmall(w, h int) bool { return w < MinWidth || h < MinHeight }

// layoutScreen splits a w×h screen into list, panes and footer. jobs is the
// number of jobs in the list, footer the footer's height in rows; zoomed
// gives the panes everything but the footer.
func layoutScreen(w, h, jobs, footer int, zoomed bool) screenLayout {
	footer = min(footer, h-3)
	body := rect{0, 0, w, h - footer}
	l := screenLayout{footer: rect{0, body.h, w, footer}}
	switch {
	case zoomed:
		l.panes = body
	case w >= sideListWidth:
		lw := clamp(w*3/10, 36, 60)
		l.side = true
		l.list = rect{0, 0, lw, body.h}
		l.panes = rect{lw, 0, w - lw, body.h}
	default:
		lh := min(max(jobs, 1)+2, max(3, body.h/3))
		l.list = rect{0, 0, w, lh}
		l.panes = rect{0, lh, w, body.h - lh}
	}
	return l
}

// paneAspect is the width-to-height ratio, in cells, that reads best for
// log lines: about four cells wide per row (twice as wide as tall on
// screen).
const paneAspect = 4.0

// aspectCost says how far panes of w×h cells are from paneAspect, on a log
// scale (so twice too wide costs the same as twice too tall).
func aspectCost(w, h int) float64 {
	if w <= 0 || h <= 0 {
		return math.Inf(1)
	}
	return math.Abs(math.Log(float64(w) / float64(h) / paneAspect))
}

// gridRects lays n panes out in area a: one fills it; two sit side by side
// or stacked; three and four form a 2×2 grid (with three, the last one
// spans the bottom row); five to eight form two rows or two columns. Where
// there is a choice, the arrangement whose panes are closest to paneAspect
// wins, so the terminal's shape decides. The rects tile a exactly, in
// focus order.
func gridRects(n int, a rect) []rect {
	switch {
	case n <= 0:
		return nil
	case n == 1:
		return []rect{a}
	case n == 2:
		if aspectCost(a.w/2, a.h) <= aspectCost(a.w, a.h/2) {
			return splitCols(a, 2)
		}
		return splitRows(a, 2)
	case n <= 4:
		rows := splitRows(a, 2)
		return append(splitCols(rows[0], 2), splitCols(rows[1], n-2)...)
	default:
		first := (n + 1) / 2
		if aspectCost(a.w/first, a.h/2) <= aspectCost(a.w/2, a.h/first) {
			rows := splitRows(a, 2)
			return append(splitCols(rows[0], first), splitCols(rows[1], n-first)...)
		}
		cols := splitCols(a, 2)
		return append(splitRows(cols[0], first), splitRows(cols[1], n-first)...)
	}
}

// splitCols cuts a into k side-by-side parts whose widths differ by at most
// one.
func splitCols(a rect, k int) []rect {
	out := make([]rect, k)
	x := a.x
	for i := range k {
		w := a.w / k
		if i < a.w%k {
			w++
		}
		out[i] = rect{x, a.y, w, a.h}
		x += w
	}
	return out
}

// splitRows cuts a into k stacked parts whose heights differ by at most one.
func splitRows(a rect, k int) []rect {
	out := make([]rect, k)
	y := a.y
	for i := range k {
		h := a.h / k
		if i < a.h%k {
			h++
		}
		out[i] = rect{a.x, y, a.w, h}
		y += h
	}
	return out
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }
