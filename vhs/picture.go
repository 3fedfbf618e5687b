//go:build unix

package vhs

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
)

// The picture's geometry, in SVG user units (pixels): a cell is
// pictureCellW × pictureCellH, text is pictureFontSize with its baseline
// pictureBaseline below the cell's top, and the screen sits pictureInset
// inside a rounded frame.
const (
	pictureCellW    = 9
	pictureCellH    = 18
	pictureFontSize = 15
	pictureBaseline = 13
	pictureInset    = 14
)

// pictureFonts is the SVG font-family: monospace fonts with the box and
// symbol glyphs the console uses, then whatever monospace the viewer has.
const pictureFonts = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace"

// PictureClock stands for every elapsed time in a picture, right-aligned
// and padded with zeros to the width of the one it replaces ("0:03" reads
// "0:42", "12:07" "00:42", "1:02:03" "0:00:42"), so a picture does not
// change with the clock. Unlike ElapsedPlaceholder it looks like a time.
const PictureClock = "0:42"

// Picture returns s as an SVG image of the screen as a terminal shows it:
// every cell's text in a monospace font with its colours (foreground and
// background, reverse video applied), bold, faint, italic, underline and
// strike-through, and the box-drawing characters as lines that meet from
// cell to cell. Elapsed times read PictureClock. The same Snapshot always
// gives the same bytes. A Snapshot without Cells gives an empty screen.
func Picture(s Snapshot) []byte {
	cells := pictureCells(s.Cells)
	w := 2*pictureInset + s.Cols*pictureCellW
	h := 2*pictureInset + s.Rows*pictureCellH
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" xml:space="preserve">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, "<title>%s</title>\n", escapeXML(s.Header()[2:]))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" rx="8" fill="%s"/>`+"\n", w, h, hexRGB(termPalette.bg))
	fmt.Fprintf(&b, `<g transform="translate(%d %d)">`+"\n", pictureInset, pictureInset)
	writeBackgrounds(&b, cells)
	writeBoxLines(&b, cells)
	fmt.Fprintf(&b, `<g font-family="%s" font-size="%d">`+"\n", pictureFonts, pictureFontSize)
	writeText(&b, cells)
	b.WriteString("</g>\n</g>\n</svg>\n")
	return b.Bytes()
}

// picCell is one cell as the picture draws it: resolved colours and the
// attributes that change how text looks.
type picCell struct {
	text   string // "" for a blank or a wide character's continuation
	width  int    // cells the text covers (0 for a continuation)
	fg, bg rgb
	attrs  uint8 // uv.Attr* bits that matter: bold, faint, italic, strike
	under  bool
}

// pictureCells resolves cells into picCells, with elapsed times replaced
// by PictureClock.
func pictureCells(cells [][]uv.Cell) [][]picCell {
	out := make([][]picCell, len(cells))
	for y, row := range cells {
		out[y] = make([]picCell, len(row))
		for x, c := range row {
			fg := resolveColor(c.Style.Fg, termPalette.fg)
			bg := resolveColor(c.Style.Bg, termPalette.bg)
			if c.Style.Attrs&uv.AttrReverse != 0 {
				fg, bg = bg, fg
			}
			pc := picCell{text: c.Content, width: c.Width, fg: fg, bg: bg,
				attrs: c.Style.Attrs & (uv.AttrBold | uv.AttrFaint | uv.AttrItalic | uv.AttrStrikethrough),
				under: c.Style.Underline != 0}
			if c.Style.Attrs&uv.AttrConceal != 0 || pc.text == " " {
				pc.text = ""
			}
			if pc.text != "" && pc.width == 0 {
				pc.width = 1
			}
			out[y][x] = pc
		}
		stillClocks(out[y])
	}
	return out
}

// clockRe is elapsedRe, the times jobdeck shows, matched in a row's text.
var clockRe = elapsedRe

// stillClocks replaces each elapsed time in row (read as text, a blank
// as a space) by PictureClock's digits, cell by cell, keeping its width.
func stillClocks(row []picCell) {
	var text strings.Builder
	var at []int // at[i]: the cell of text's byte i
	for x, c := range row {
		t := c.text
		if t == "" {
			if c.width == 0 && x > 0 && row[x-1].width == 2 {
				continue // a wide character's second half: no text of its own
			}
			t = " "
		}
		for range len(t) {
			at = append(at, x)
		}
		text.WriteString(t)
	}
	for _, m := range clockRe.FindAllStringIndex(text.String(), -1) {
		// Right to left, each digit takes the next of PictureClock's, then 0.
		digits := strings.ReplaceAll(PictureClock, ":", "")
		for i := m[1] - 1; i >= m[0]; i-- {
			if text.String()[i] == ':' {
				continue
			}
			d := byte('0')
			if digits != "" {
				d, digits = digits[len(digits)-1], digits[:len(digits)-1]
			}
			row[at[i]].text = string(d)
		}
	}
}

// writeBackgrounds draws each run of cells in a row whose background is
// not the terminal's as one rectangle.
func writeBackgrounds(b *bytes.Buffer, cells [][]picCell) {
	for y, row := range cells {
		for x := 0; x < len(row); {
			bg := row[x].bg
			end := x + 1
			for end < len(row) && row[end].bg == bg {
				end++
			}
			if bg != termPalette.bg {
				fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n",
					x*pictureCellW, y*pictureCellH, (end-x)*pictureCellW, pictureCellH, hexRGB(bg))
			}
			x = end
		}
	}
}

// textStyle is what a run of text shares.
type textStyle struct {
	fg    rgb
	attrs uint8
	under bool
}

// writeText draws each row's text as runs of one style, each a <text>
// placed at its first cell and stretched to its cells (textLength), so
// columns hold in any monospace font. Box-drawing cells and blanks at a
// run's end are left out.
func writeText(b *bytes.Buffer, cells [][]picCell) {
	for y, row := range cells {
		for x := 0; x < len(row); {
			c := row[x]
			if c.text == "" || isBoxLine(c.text) {
				x++
				continue
			}
			st := textStyle{c.fg, c.attrs, c.under}
			var run strings.Builder
			end, last := x, x
			for ; end < len(row); end++ {
				d := row[end]
				if isBoxLine(d.text) || d.text != "" && (textStyle{d.fg, d.attrs, d.under}) != st {
					break
				}
				switch {
				case d.text != "":
					run.WriteString(d.text)
					last = end + d.width - 1
				case d.width == 0 && end > 0 && row[end-1].width == 2:
					// the second half of a wide character
				default:
					run.WriteByte(' ')
				}
			}
			text := strings.TrimRight(run.String(), " ")
			writeRun(b, x, y, last-x+1, text, st)
			x = end
		}
	}
}

// writeRun writes one <text> of n cells at cell (x, y).
func writeRun(b *bytes.Buffer, x, y, n int, text string, st textStyle) {
	fmt.Fprintf(b, `<text x="%d" y="%d" textLength="%d" fill="%s"`, x*pictureCellW, y*pictureCellH+pictureBaseline, n*pictureCellW, hexRGB(st.fg))
	if st.attrs&uv.AttrBold != 0 {
		b.WriteString(` font-weight="bold"`)
	}
	if st.attrs&uv.AttrFaint != 0 {
		b.WriteString(` fill-opacity="0.6"`)
	}
	if st.attrs&uv.AttrItalic != 0 {
		b.WriteString(` font-style="italic"`)
	}
	var deco []string
	if st.under {
		deco = append(deco, "underline")
	}
	if st.attrs&uv.AttrStrikethrough != 0 {
		deco = append(deco, "line-through")
	}
	if len(deco) > 0 {
		fmt.Fprintf(b, ` text-decoration="%s"`, strings.Join(deco, " "))
	}
	fmt.Fprintf(b, ">%s</text>\n", escapeXML(text))
}

// xmlEscaper escapes text for an SVG text node or attribute.
var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// controlRe matches what XML 1.0 cannot hold at all.
var controlRe = regexp.MustCompile("[\x00-\x08\x0b\x0c\x0e-\x1f]")

// escapeXML is s safe inside an SVG element or attribute.
func escapeXML(s string) string {
	return xmlEscaper.Replace(controlRe.ReplaceAllLiteralString(s, "\uFFFD"))
}
