package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
)

// fit returns s cut (with "…") or padded with spaces to exactly w cells.
// s may hold SGR sequences; they are kept.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += spaces(w - sw)
	}
	return s
}

// spaces returns n spaces (none for n ≤ 0).
func spaces(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(" ", n)
}

// styledLine returns a job's raw line ready for the screen: sanitised with
// its SGR colours kept (closed at the end), or without any colour when
// noColor is set.
func styledLine(text []byte, noColor bool) string {
	s := sanitize.Styled(text)
	if noColor && strings.IndexByte(s, ansi.ESC) >= 0 {
		s = ansi.Strip(s)
	}
	return s
}
