package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ui/present"
)

// stateGlyph returns the glyph and style of a job's state. The glyphs alone
// tell the states apart, so the list reads the same without colour:
//
//	● running   ◌ stopping   ✓ exited 0   ✗ exited non-zero
//	⊘ killed by a signal   ◑ leader gone, processes still running
//	! failed to start
func (st Styles) stateGlyph(s model.Snapshot) (string, sgr) {
	switch {
	case s.State == model.StateFailed:
		return "!", st.rendered.failed
	case s.State == model.StateStopping:
		return "◌", st.rendered.stopping
	case s.Exit == nil:
		return "●", st.rendered.running
	case s.Remaining > 0 && !s.Done:
		return "◑", st.rendered.lingering
	case s.Exit.Signaled():
		return "⊘", st.rendered.failed
	case s.Exit.Code == 0:
		return "✓", st.rendered.succeeded
	default:
		return "✗", st.rendered.failed
	}
}

// renderList draws the job list into r: a frame titled "jobs" with one row
// per job (selection mark, state glyph, ID and name with the ports it
// listens on, state with exit status
// or signal and "N still running", elapsed time, command). The list scrolls
// to keep the selected job in view. It returns exactly r.h rows of exactly
// r.w cells.
func (m *Model) renderList(r rect) []string {
	out := make([]string, 0, r.h)
	if r.h <= 0 {
		return out
	}
	b := lipgloss.RoundedBorder()
	out = append(out, frameTop(b, m.st.rendered.borderS, m.st.rendered.titleS, m.listTitle(), "", r.w))
	inner, rows := r.w-2, r.h-2
	if rows <= 0 {
		return out[:min(len(out), r.h)]
	}
	vl, vr := m.st.rendered.borderL, m.st.rendered.border

	// Column widths from the content. The state column shows the full
	// status ("exited 0, 1 still running", "killed by SIGTERM") when it
	// fits beside a useful part of the command, else a compact one
	// ("exit 0, 1 still running", "SIGTERM").
	now := m.shownNow()
	labelW, elapsedW, fullW, shortW := 1, 4, 1, 1
	for _, s := range m.jobs {
		labelW = max(labelW, ansi.StringWidth(present.Label(s)))
		elapsedW = max(elapsedW, len(model.FormatElapsed(s.Elapsed(now))))
		fullW = max(fullW, ansi.StringWidth(s.Status()))
		shortW = max(shortW, ansi.StringWidth(present.ShortStatus(s)))
	}
	// The label (ID, name, ports) is cut last: the command gives way
	// first, down to listCmdMin cells; only then is the label cut, to no
	// less than a quarter of the row.
	room := inner - 2 - 1 - 1 - min(shortW, 7) - 1 - elapsedW - 1 - listCmdMin
	labelW = min(labelW, max(room, inner/4, 4))
	rest := inner - 2 - 1 - labelW - 1 - elapsedW - 1 - 1
	statusW, short := fullW, false
	if fullW > rest-12 {
		statusW, short = min(shortW, max(rest-6, 7)), true
	}
	cols := listCols{label: labelW, status: statusW, elapsed: elapsedW, short: short}

	first := 0
	if idx := m.currentIndex(); idx >= rows {
		first = idx - rows + 1
	}
	for i := range rows {
		j := first + i
		var cell string
		switch {
		case len(m.jobs) == 0 && i == 0:
			cell = m.st.rendered.dimS.wrap(fit(" no jobs yet", inner))
		case j < len(m.jobs):
			cell = m.listRow(m.jobs[j], inner, cols)
		default:
			cell = spaces(inner)
		}
		out = append(out, vl+cell+vr)
	}
	out = append(out, frameBottom(b, m.st.rendered.borderS, "", r.w))
	return out
}

// listCmdMin is the fewest cells the list keeps for a job's command before
// it cuts the label (the ports of a named job).
const listCmdMin = 6

// listCols are the widths of the job list's columns.
type listCols struct {
	label, status, elapsed int
	short                  bool // use shortStatus
}

// listRow draws one job of the list in w cells.
func (m *Model) listRow(s model.Snapshot, w int, c listCols) string {
	sel := m.hasCurrent && s.ID == m.current
	glyph, gs := m.st.stateGlyph(s)
	label := fit(present.Label(s), c.label)
	st := s.Status()
	if c.short {
		st = present.ShortStatus(s)
	}
	status := fit(st, c.status)
	elapsed := model.FormatElapsed(s.Elapsed(m.shownNow()))
	elapsed = spaces(c.elapsed-len(elapsed)) + elapsed
	// mark, glyph, then the columns, one space apart.
	cmdW := w - 2 - 1 - c.label - 1 - c.status - 1 - c.elapsed - 1
	cmd := ""
	if cmdW > 0 {
		text := model.OneLine(s.Command, cmdW)
		if tag := present.OwnerTag(s.Owner, m.owner); tag != "" {
			text = tag + " " + text
		}
		cmd = fit(text, cmdW)
	}
	if sel {
		row := "▸" + glyph + " " + label + " " + status + " " + elapsed + " " + cmd
		return m.st.rendered.selectedS.wrap(fit(row, w))
	}
	var sb strings.Builder
	sb.WriteString(" ")
	sb.WriteString(gs.wrap(glyph))
	sb.WriteString(" ")
	sb.WriteString(label)
	sb.WriteString(" ")
	sb.WriteString(gs.wrap(status))
	sb.WriteString(" ")
	sb.WriteString(m.st.rendered.dimS.wrap(elapsed))
	sb.WriteString(" ")
	sb.WriteString(cmd)
	return fit(sb.String(), w)
}
