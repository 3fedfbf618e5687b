package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// View returns the screen. It renders only when something visible changed
// since the last call (a key, a frame, a state event, the clock);
// otherwise it returns the same content, which the renderer skips. When
// only the footer changed (typing in the palette), only the footer's rows
// are drawn again, after the rest of the last frame.
func (m *Model) View() tea.View {
	switch {
	case !m.cache.ok || m.cache.gen != m.gen:
		m.renderFrame()
		m.cache.gen, m.cache.footGen, m.cache.ok = m.gen, m.footGen, true
	case m.cache.footGen != m.footGen:
		m.cache.footGen = m.footGen
		l := m.layout()
		if tooSmall(m.width, m.height) || l.footer != m.cache.footer || l.footer.x != 0 || l.footer.w != m.width || l.footer.y == 0 {
			m.renderFrame()
		} else {
			buf := m.frame[:m.cache.footOff]
			for i, line := range m.renderFooter(l.footer.w, l.footer.h) {
				if i > 0 {
					buf = append(buf, '\n')
				}
				buf = append(buf, line...)
			}
			m.frame = buf
			m.cache.content = string(buf)
		}
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

// renderFrame draws the whole screen into m.frame (exactly height rows of
// width cells) and its content, and notes where the footer is.
func (m *Model) renderFrame() {
	m.cache.footer, m.cache.footOff = rect{}, 0
	switch {
	case m.width <= 0 || m.height <= 0:
		m.frame, m.cache.content = m.frame[:0], ""
		return
	case tooSmall(m.width, m.height):
		m.cache.content = m.renderTooSmall()
		m.frame = append(m.frame[:0], m.cache.content...)
		return
	}
	l := m.layout()
	parts := make([]screenPart, 0, MaxPanes+2)
	if l.list.w > 0 && l.list.h > 0 {
		parts = append(parts, screenPart{r: l.list, lines: m.renderList(l.list)})
	}
	switch {
	case m.overlay != nil:
		parts = append(parts, screenPart{r: l.panes, lines: m.renderOverlay(m.overlay, l.panes)})
	case len(m.jobs) == 0:
		parts = append(parts, screenPart{r: l.panes, lines: m.renderEmpty(l.panes)})
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
				hl:      m.searchIn(s.ID),
			}
			parts = append(parts, m.renderPane(p, rects[i]))
		}
	}
	parts = append(parts, screenPart{r: l.footer, lines: m.renderFooter(l.footer.w, l.footer.h)})
	m.frame, m.cache.footOff = compose(m.frame[:0], m.height, parts, l.footer.y)
	m.cache.footer = l.footer
	m.cache.content = string(m.frame)
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
