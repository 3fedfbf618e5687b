package ui

import (
	"image/color"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
)

// Palette is the small set of colours every style is built from. They are
// ANSI colours (0–15), so they follow the terminal's own theme, light or
// dark.
type Palette struct {
	Accent, OK, Fail, Warn, Dim color.Color
}

// DefaultPalette returns the console's colours: blue accent, green for
// success, red for failure and the stderr mark, yellow for warnings, grey
// for secondary text.
func DefaultPalette() Palette {
	return Palette{
		Accent: lipgloss.Color("12"),
		OK:     lipgloss.Color("2"),
		Fail:   lipgloss.Color("1"),
		Warn:   lipgloss.Color("3"),
		Dim:    lipgloss.Color("8"),
	}
}

// Styles holds every style of the console, built from one Palette by
// NewStyles. With NoColor no style carries a colour; focus and selection
// are then shown with bold, reverse video and thick borders only.
type Styles struct {
	// NoColor reports that colours are off (NO_COLOR): job output is shown
	// without its SGR colours too.
	NoColor bool

	Border, BorderFocus     lipgloss.Style // pane and list frames
	Title, TitleFocus       lipgloss.Style // pane titles
	Selected                lipgloss.Style // the selected job list row
	Dim                     lipgloss.Style // secondary text, hints
	Dropped                 lipgloss.Style // "[… N lines dropped]"
	ErrMark                 lipgloss.Style // the "!" of stderr lines
	Running, Stopping       lipgloss.Style // state glyphs and words
	Succeeded, Failed       lipgloss.Style
	Lingering               lipgloss.Style // leader gone, tree still running
	Status                  lipgloss.Style // the status line counts
	Info, Error             lipgloss.Style // status messages
	Confirm                 lipgloss.Style // confirm questions
	PaletteText, PaletteErr lipgloss.Style
	Help                    help.Styles

	// rendered caches strings used once per rendered line.
	rendered renderedPieces
}

// renderedPieces are pieces rendered once, used in hot loops.
type renderedPieces struct {
	errMark            string // styled "!"
	border, borderFoc  string // styled vertical border pieces
	borderL, borderFL  string
	droppedOpen, dropC string

	// The SGR around text of the styles frames and list rows use, so
	// that a frame wraps its text without lipgloss's Render.
	borderS, borderFocS, titleS, titleFocS, dimS, selectedS sgr
	running, stopping, succeeded, failed, lingering         sgr
}

// sgr is the escape sequences a style puts before and after its text
// (both empty without colours or attributes).
type sgr struct{ open, close string }

// sgrOf returns st's sgr.
func sgrOf(st lipgloss.Style) sgr {
	o, c := sgrAround(st)
	return sgr{o, c}
}

// wrap returns text in the style: what st.Render(text) gives for one line
// of text without tabs.
func (s sgr) wrap(text string) string {
	if s.open == "" && s.close == "" {
		return text
	}
	return s.open + text + s.close
}

// NewStyles builds the console's styles from DefaultPalette; noColor drops
// every colour.
func NewStyles(noColor bool) Styles {
	p := DefaultPalette()
	fg := func(c color.Color) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(c)
	}
	s := Styles{
		NoColor:     noColor,
		Border:      fg(p.Dim),
		BorderFocus: fg(p.Accent).Bold(true),
		Title:       lipgloss.NewStyle(),
		TitleFocus:  fg(p.Accent).Bold(true),
		Selected:    lipgloss.NewStyle().Reverse(true),
		Dim:         fg(p.Dim),
		Dropped:     fg(p.Warn).Italic(true),
		ErrMark:     fg(p.Fail).Bold(true),
		Running:     fg(p.Accent),
		Stopping:    fg(p.Warn),
		Succeeded:   fg(p.OK),
		Failed:      fg(p.Fail),
		Lingering:   fg(p.Warn),
		Status:      lipgloss.NewStyle(),
		Info:        fg(p.Accent),
		Error:       fg(p.Fail).Bold(true),
		Confirm:     fg(p.Warn).Bold(true),
		PaletteText: lipgloss.NewStyle(),
		PaletteErr:  fg(p.Fail),
	}
	if noColor {
		s.Help = help.Styles{}
		s.Dropped = lipgloss.NewStyle().Italic(true)
	} else {
		s.Help = help.DefaultDarkStyles()
		s.Help.ShortKey = fg(p.Accent)
		s.Help.FullKey = fg(p.Accent)
		s.Help.ShortDesc = fg(p.Dim)
		s.Help.FullDesc = fg(p.Dim)
		s.Help.ShortSeparator = fg(p.Dim)
		s.Help.FullSeparator = fg(p.Dim)
		s.Help.Ellipsis = fg(p.Dim)
	}
	s.rendered.errMark = s.ErrMark.Render("!")
	s.rendered.droppedOpen, s.rendered.dropC = sgrAround(s.Dropped)
	s.rendered.border = s.Border.Render(lipgloss.RoundedBorder().Right)
	s.rendered.borderL = s.Border.Render(lipgloss.RoundedBorder().Left)
	s.rendered.borderFoc = s.BorderFocus.Render(lipgloss.ThickBorder().Right)
	s.rendered.borderFL = s.BorderFocus.Render(lipgloss.ThickBorder().Left)
	s.rendered.borderS, s.rendered.borderFocS = sgrOf(s.Border), sgrOf(s.BorderFocus)
	s.rendered.titleS, s.rendered.titleFocS = sgrOf(s.Title), sgrOf(s.TitleFocus)
	s.rendered.dimS, s.rendered.selectedS = sgrOf(s.Dim), sgrOf(s.Selected)
	s.rendered.running, s.rendered.stopping = sgrOf(s.Running), sgrOf(s.Stopping)
	s.rendered.succeeded, s.rendered.failed, s.rendered.lingering = sgrOf(s.Succeeded), sgrOf(s.Failed), sgrOf(s.Lingering)
	return s
}

// sgrAround returns the escape sequences a style puts before and after its
// text, so that hot loops can wrap text without calling Render.
func sgrAround(st lipgloss.Style) (open, close string) {
	const sentinel = "\uE000"
	r := st.Render(sentinel)
	i := strings.Index(r, sentinel)
	if i < 0 {
		return "", ""
	}
	return r[:i], r[i+len(sentinel):]
}
