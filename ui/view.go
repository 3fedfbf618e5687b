package ui

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// View returns the screen. It renders only when something visible changed
// since the last call (a key, a frame, a state event, the clock);
// otherwise it returns the same content, which the renderer skips.
func (m *Model) View() tea.View {
	switch {
	case !m.cache.ok || m.cache.gen != m.gen:
		m.cache.rows, m.cache.footer = m.render()
		m.cache.content = strings.Join(m.cache.rows, "\n")
		m.cache.gen, m.cache.footGen, m.cache.ok = m.gen, m.footGen, true
	case m.cache.footGen != m.footGen:
		m.cache.footGen = m.footGen
		l := m.layout()
		if tooSmall(m.width, m.height) || l.footer != m.cache.footer || l.footer.x != 0 || l.footer.w != m.width {
			m.cache.rows, m.cache.footer = m.render()
		} else {
			foot := m.renderFooter(l.footer.w, l.footer.h)
			for i := 0; i < l.footer.h && l.footer.y+i < len(m.cache.rows); i++ {
				line := ""
				if i < len(foot) {
					line = foot[i]
				}
				m.cache.rows[l.footer.y+i] = line
			}
		}
		m.cache.content = strings.Join(m.cache.rows, "\n")
	}
	v := tea.NewView(m.cache.content)
	v.AltScreen = true
	if !m.mouseOff {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = m.windowTitle()
	if m.palette != nil && !tooSmall(m.width, m.height) {
		if c := m.palette.cursor(); c != nil {
			l := m.layout()
			c.Y += l.footer.y
			v.Cursor = c
		}
	}
	return v
}

// render draws the whole screen: exactly height rows of width cells, and
// says where the footer is.
func (m *Model) render() ([]string, rect) {
	if m.width <= 0 || m.height <= 0 {
		return nil, rect{}
	}
	if tooSmall(m.width, m.height) {
		return strings.Split(m.renderTooSmall(), "\n"), rect{}
	}
	l := m.layout()
	rows := make([]string, m.height)
	// Each part is a rect's rows; placing the parts in x order builds
	// every screen row left to right.
	var parts []placed
	add := func(r rect, lines []string) { parts = append(parts, placed{r, lines}) }
	if l.list.w > 0 && l.list.h > 0 {
		add(l.list, m.renderList(l.list))
	}
	switch {
	case m.overlay != nil:
		add(l.panes, m.renderOverlay(m.overlay, l.panes))
	case len(m.jobs) == 0:
		add(l.panes, m.renderEmpty(l.panes))
	default:
		shown, rects := m.paneRects()
		for i, s := range shown {
			p := paneView{
				snap:    s,
				num:     i + 1,
				top:     m.scroll[s.ID],
				focused: m.hasCurrent && s.ID == m.current,
				zoomed:  m.zoomed,
				wrap:    m.wrap[s.ID],
			}
			add(rects[i], m.renderPane(p, rects[i]))
		}
	}
	add(l.footer, m.renderFooter(l.footer.w, l.footer.h))
	slices.SortStableFunc(parts, func(a, b placed) int { return cmp.Compare(a.r.x, b.r.x) })
	for _, p := range parts {
		for i, s := range p.lines {
			if i < p.r.h && p.r.y+i < len(rows) {
				rows[p.r.y+i] += s
			}
		}
	}
	return rows, l.footer
}

// placed is a part of the screen: the rows drawn for a rect.
type placed struct {
	r     rect
	lines []string
}

// renderTooSmall is the plain message shown below the minimum size.
func (m *Model) renderTooSmall() string {
	msg := "terminal too small: " + strconv.Itoa(m.width) + "×" + strconv.Itoa(m.height) +
		", need " + strconv.Itoa(MinWidth) + "×" + strconv.Itoa(MinHeight)
	lines := make([]string, m.height)
	for i := range lines {
		lines[i] = spaces(m.width)
	}
	msgLines := strings.Split(ansi.Wrap(msg, m.width, ""), "\n")
	for i, l := range msgLines {
		if y := max((m.height-len(msgLines))/2, 0) + i; y < m.height {
			lines[y] = fit(l, m.width)
		}
	}
	return strings.Join(lines, "\n")
}

// renderEmpty fills the pane area of an empty console with its hint.
func (m *Model) renderEmpty(r rect) []string {
	out := make([]string, r.h)
	for i := range out {
		out[i] = spaces(r.w)
	}
	if r.h > 0 {
		hint := "No jobs yet: press / and type background <command> to start one (? for keys)."
		out[r.h/2] = m.st.Dim.Render(fit("  "+hint, r.w))
	}
	return out
}
