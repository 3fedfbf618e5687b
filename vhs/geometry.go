package vhs

import "math"

// Settings are the values of a tape's Set commands that the runner uses,
// with VHS v0.10.0's defaults (vhs.go and style.go of that release) for
// anything the tape leaves unset. Sizes are CSS pixels, as in VHS.
type Settings struct {
	// Width and Height are the whole frame in pixels; default 1200 × 600.
	Width, Height int
	// FontSize is the font size in pixels; default 22.
	FontSize int
	// Padding is the space between frame edge and terminal, in pixels, on
	// every side; default 60.
	Padding int
	// Margin is the outer margin in pixels (counted only when MarginFill is
	// set, which VHS does by default); default 0.
	Margin int
	// WindowBar is the bar style ("" for none, the default); when set, the bar
	// takes WindowBarSize (default 30) pixels of the height.
	WindowBar     string
	WindowBarSize int
	// LetterSpacing is extra pixels per cell, rounded; default 1.
	LetterSpacing float64
	// LineHeight multiplies the cell height; default 1.
	LineHeight float64
}

// DefaultSettings returns VHS v0.10.0's defaults: 1200 × 600 pixels, font
// size 22, padding 60, no margin, no window bar, letter spacing 1, line
// height 1.
func DefaultSettings() Settings {
	return Settings{
		Width: 1200, Height: 600, FontSize: 22, Padding: 60,
		WindowBarSize: 30, LetterSpacing: 1, LineHeight: 1,
	}
}

// The cell rule models what real VHS v0.10.0 shows, read from its source:
//
//   - VHS sets the browser viewport to Width − 2·Padding − 2·Margin by
//     Height − 2·Padding − 2·Margin − bar (vhs.go, Setup).
//   - ttyd's page pads the terminal element by 5 px on each side
//     (ttyd html/src/style/index.scss) and xterm.js's fit addon subtracts
//     that padding and, horizontally, the scrollbar (15 px in Chromium), then
//     floors the division by the cell size (addon-fit FitAddon.ts).
//   - The cell is measured from the font. The rule assumes DejaVu Sans Mono,
//     the font Debian's fonts-dejavu-core provides and the one tapes should
//     name with Set FontFamily: advance 1233/2048 em, floored, plus the
//     rounded LetterSpacing (xterm.js DOM measure and renderer); ascent
//     1901/2048 em and descent 483/2048 em, each rounded by Chromium, times
//     LineHeight, floored.
//
// The cell size and the scrollbar reproduce the three grids measured in real
// VHS with a ttyd stand-in whose page had no padding (TestCellsMatchMeasuredVHS
// holds them); real ttyd's 5 px padding comes from its stylesheet and was
// not measured here, because ttyd is not packaged for the machines this
// project runs on.
const (
	ttydPadding    = 5  // px each side, ttyd's .terminal { padding: 5px }
	scrollbarWidth = 15 // px, Chromium's classic scrollbar on Linux
	dejaVuAdvance  = 1233.0 / 2048
	dejaVuAscent   = 1901.0 / 2048
	dejaVuDescent  = 483.0 / 2048
	minCols        = 2 // xterm.js fit addon's minimum
	minRows        = 1
)

// CellSize returns the width and height in pixels of one terminal cell for
// the settings' FontSize, LetterSpacing and LineHeight, under the DejaVu Sans
// Mono rule above. FontSize 22 gives 14 × 25, 16 gives 10 × 19, 14 gives
// 9 × 16.
func (s Settings) CellSize() (w, h int) {
	f := float64(s.FontSize)
	w = int(math.Floor(f*dejaVuAdvance)) + int(math.Round(s.LetterSpacing))
	charH := math.Round(f*dejaVuAscent) + math.Round(f*dejaVuDescent)
	h = int(math.Floor(charH * s.LineHeight))
	return max(w, 1), max(h, 1)
}

// Cells returns the terminal grid, in columns and rows, that the runner uses
// for these settings:
//
//	cols = ⌊(Width  − 2·Padding − 2·Margin − 10 − 15) / cellWidth⌋
//	rows = ⌊(Height − 2·Padding − 2·Margin − bar − 10) / cellHeight⌋
//
// with the cell size from CellSize, at least 2 columns and 1 row. Example:
// Width 870, Height 515, FontSize 16, Padding 20 gives 80 × 24.
func (s Settings) Cells() (cols, rows int) {
	return s.grid(ttydPadding)
}

// grid is Cells with the page's padding around the terminal element as a
// parameter (pagePad pixels on each side).
func (s Settings) grid(pagePad int) (cols, rows int) {
	cw, ch := s.CellSize()
	bar := 0
	if s.WindowBar != "" {
		bar = s.WindowBarSize
	}
	availW := s.Width - 2*s.Padding - 2*s.Margin - 2*pagePad - scrollbarWidth
	availH := s.Height - 2*s.Padding - 2*s.Margin - bar - 2*pagePad
	return max(minCols, availW/cw), max(minRows, availH/ch)
}

// minFrame returns the smallest Width and Height real VHS accepts for these
// settings ("Dimensions must be at least …", evaluator.go).
func (s Settings) minFrame() (w, h int) {
	w = 2*s.Padding + 2*s.Margin
	h = w
	if s.WindowBar != "" {
		h += s.WindowBarSize
	}
	return w, h
}
