//go:build unix

package vhs

import (
	"bytes"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// screenOf makes a Snapshot of rows, one cell per rune (a wide rune takes
// two), every cell styled by style(x, y).
func screenOf(rows []string, style func(x, y int) uv.Style) Snapshot {
	s := Snapshot{Tape: "t", Name: "n", Rows: len(rows)}
	for _, r := range rows {
		s.Cols = max(s.Cols, ansi.StringWidth(r))
	}
	for y, r := range rows {
		row := make([]uv.Cell, s.Cols)
		x := 0
		for _, ch := range r {
			w := ansi.StringWidth(string(ch))
			row[x] = uv.Cell{Content: string(ch), Width: w, Style: style(x, y)}
			x += w
		}
		for ; x < s.Cols; x++ {
			row[x] = uv.Cell{Content: " ", Width: 1, Style: style(x, y)}
		}
		s.Cells = append(s.Cells, row)
	}
	return s
}

func plain(int, int) uv.Style { return uv.Style{} }

// TestPictureBoxLines: box-drawing characters are drawn as lines (a
// straight run as one segment, a rounded corner as a curve), never as
// text, while the text beside them is text at its cell.
func TestPictureBoxLines(t *testing.T) {
	t.Parallel()
	svg := string(Picture(screenOf([]string{"╭───╮", "│ab │", "╰───╯"}, plain)))
	for _, want := range []string{
		`V18M9 9H36`,      // after ╭, the run of ─ as one segment of three cells
		`Q4.5 9 4.5 13.5`, // ╭'s quarter curve
		`M4.5 18V36`,      // the left │, one cell tall
		`<text x="9" y="31" textLength="18" fill="#d8dbe2">ab</text>`,
		`stroke-width="1.2"`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("the picture lacks %q:\n%s", want, svg)
		}
	}
	for _, box := range []string{"─", "│", "╭", "╯"} {
		if strings.Contains(svg, box) {
			t.Errorf("%s is drawn as text:\n%s", box, svg)
		}
	}
	heavy := string(Picture(screenOf([]string{"┏━┓"}, plain)))
	if !strings.Contains(heavy, `stroke-width="2.6"`) || strings.Contains(heavy, "━") {
		t.Errorf("a heavy frame is not drawn with heavy lines:\n%s", heavy)
	}
}

// TestPictureStyles: colours (basic, 256, RGB, background), reverse
// video, bold, faint and underline reach the picture, and text that XML
// would read is escaped.
func TestPictureStyles(t *testing.T) {
	t.Parallel()
	styles := map[int]uv.Style{
		0: {Fg: ansi.BasicColor(1)},
		1: {Fg: ansi.IndexedColor(196), Attrs: uv.AttrBold},
		2: {Fg: ansi.BasicColor(2), Attrs: uv.AttrReverse},
		3: {Bg: ansi.IndexedColor(232), Attrs: uv.AttrFaint, Underline: uv.UnderlineSingle},
		4: {Fg: ansi.RGBColor{R: 0x12, G: 0x34, B: 0x56}},
	}
	svg := string(Picture(screenOf([]string{"r", "b", "v", "f", "<&>"}, func(_, y int) uv.Style { return styles[y] })))
	for _, want := range []string{
		`fill="#e05a56">r</text>`,
		`fill="#ff0000" font-weight="bold">b</text>`,
		`<rect x="0" y="36" width="27" height="18" fill="#5fb36a"/>`, // reversed: the colour is the background
		`fill="#1c1f26">v</text>`,
		`<rect x="0" y="54" width="27" height="18" fill="#080808"/>`,
		`fill-opacity="0.6" text-decoration="underline">f</text>`,
		`fill="#123456">&lt;&amp;&gt;</text>`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("the picture lacks %q:\n%s", want, svg)
		}
	}
}

// TestPictureStillClocks: elapsed times read PictureClock at their own
// width, and the rest of the row, wide characters included, keeps its
// cells.
func TestPictureStillClocks(t *testing.T) {
	t.Parallel()
	svg := string(Picture(screenOf([]string{"● 0:03 日本 12:07 1:02:03 v1.2"}, plain)))
	if !strings.Contains(svg, `>● 0:42 日本 00:42 0:00:42 v1.2</text>`) {
		t.Errorf("the clocks are not still:\n%s", svg)
	}
	if !strings.Contains(svg, `textLength="270"`) { // 30 cells: the wide characters take two each
		t.Errorf("the row's text does not span its 30 cells:\n%s", svg)
	}
}

// TestPictureDeterministic: the same screen gives the same bytes, and a
// screen one cell different gives other bytes (the negative control of
// TestPictures' staleness check).
func TestPictureDeterministic(t *testing.T) {
	t.Parallel()
	rows := []string{"╭─ jobs ─╮", "│● 0:01  │", "╰────────╯"}
	colour := func(x, y int) uv.Style {
		if x == 1 && y == 1 {
			return uv.Style{Fg: ansi.BasicColor(2)}
		}
		return uv.Style{Fg: ansi.BasicColor(8)}
	}
	a, b := Picture(screenOf(rows, colour)), Picture(screenOf(rows, colour))
	if !bytes.Equal(a, b) {
		t.Error("two pictures of one screen differ")
	}
	later := Picture(screenOf([]string{"╭─ jobs ─╮", "│● 0:09  │", "╰────────╯"}, colour))
	if !bytes.Equal(a, later) {
		t.Error("a picture changes with the clock")
	}
	if bytes.Equal(a, Picture(screenOf(rows, plain))) {
		t.Error("a picture does not change with a cell's colour")
	}
}
