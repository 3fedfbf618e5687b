//go:build unix

package vhs

import (
	"bytes"
	"fmt"
	"image/color"
	"slices"
	"strconv"

	"github.com/charmbracelet/x/ansi"
)

// rgb is a colour as the picture writes it.
type rgb struct{ r, g, b uint8 }

// hexRGB is c as "#rrggbb".
func hexRGB(c rgb) string { return fmt.Sprintf("#%02x%02x%02x", c.r, c.g, c.b) }

// termPalette is the terminal the pictures show: a dark background, and
// the 16 ANSI colours (0–7 normal, 8–15 bright) of a common dark theme.
var termPalette = struct {
	fg, bg rgb
	ansi   [16]rgb
}{
	fg: rgb{0xd8, 0xdb, 0xe2},
	bg: rgb{0x1c, 0x1f, 0x26},
	ansi: [16]rgb{
		{0x2f, 0x33, 0x3d}, {0xe0, 0x5a, 0x56}, {0x5f, 0xb3, 0x6a}, {0xd5, 0xa2, 0x3c},
		{0x5a, 0x9c, 0xf0}, {0xb4, 0x84, 0xe6}, {0x44, 0xbc, 0xc4}, {0xc3, 0xc8, 0xd0},
		{0x6b, 0x73, 0x80}, {0xf2, 0x7c, 0x76}, {0x7c, 0xcf, 0x86}, {0xe8, 0xbf, 0x5e},
		{0x78, 0xb4, 0xff}, {0xcf, 0xa6, 0xf7}, {0x66, 0xd6, 0xdd}, {0xf2, 0xf4, 0xf7},
	},
}

// resolveColor is c in the picture's palette: nil is def, the 16 ANSI
// colours are termPalette's, the rest of the 256 are xterm's cube and
// greys, and any other colour is its own RGB.
func resolveColor(c color.Color, def rgb) rgb {
	switch v := c.(type) {
	case nil:
		return def
	case ansi.BasicColor:
		return termPalette.ansi[v&15]
	case ansi.IndexedColor:
		return indexed(uint8(v))
	}
	r, g, b, _ := c.RGBA()
	return rgb{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

// indexed is colour n of the 256: 0–15 termPalette's, 16–231 the 6×6×6
// cube, 232–255 the greys.
func indexed(n uint8) rgb {
	switch {
	case n < 16:
		return termPalette.ansi[n]
	case n < 232:
		level := func(i uint8) uint8 {
			if i == 0 {
				return 0
			}
			return 55 + 40*i
		}
		i := n - 16
		return rgb{level(i / 36), level(i / 6 % 6), level(i % 6)}
	}
	g := 8 + 10*(n-232)
	return rgb{g, g, g}
}

// boxArms is a box-drawing character's lines from the cell's middle to
// its edges, up, right, down, left: 0 none, 1 light, 2 heavy; round tells
// a rounded corner.
type boxArms struct {
	up, right, down, left uint8
	round                 bool
}

// boxChars are the box-drawing characters drawn as lines: the lines and
// corners of Lip Gloss's borders and their joints, light and heavy.
var boxChars = map[string]boxArms{
	"─": {0, 1, 0, 1, false}, "━": {0, 2, 0, 2, false},
	"│": {1, 0, 1, 0, false}, "┃": {2, 0, 2, 0, false},
	"┌": {0, 1, 1, 0, false}, "┐": {0, 0, 1, 1, false}, "└": {1, 1, 0, 0, false}, "┘": {1, 0, 0, 1, false},
	"┏": {0, 2, 2, 0, false}, "┓": {0, 0, 2, 2, false}, "┗": {2, 2, 0, 0, false}, "┛": {2, 0, 0, 2, false},
	"╭": {0, 1, 1, 0, true}, "╮": {0, 0, 1, 1, true}, "╰": {1, 1, 0, 0, true}, "╯": {1, 0, 0, 1, true},
	"├": {1, 1, 1, 0, false}, "┤": {1, 0, 1, 1, false}, "┬": {0, 1, 1, 1, false}, "┴": {1, 1, 0, 1, false},
	"┼": {1, 1, 1, 1, false}, "┣": {2, 2, 2, 0, false}, "┫": {2, 0, 2, 2, false}, "┳": {0, 2, 2, 2, false},
	"┻": {2, 2, 0, 2, false}, "╋": {2, 2, 2, 2, false},
}

// isBoxLine tells whether text is a character the picture draws as lines.
func isBoxLine(text string) bool {
	_, ok := boxChars[text]
	return ok
}

// strokeWidth is the width of a light (1) or heavy (2) line.
func strokeWidth(weight uint8) string {
	if weight == 2 {
		return "2.6"
	}
	return "1.2"
}

// boxStroke is what one <path> of lines shares.
type boxStroke struct {
	colour rgb
	weight uint8
}

// num formats a coordinate in half pixels as the shortest decimal.
func num(halves int) string { return strconv.FormatFloat(float64(halves)/2, 'f', -1, 64) }

// writeBoxLines draws every box-drawing cell as lines in its foreground
// colour: straight arms as segments, joined across cells into one per
// run, and corners as one bend (a quarter curve when rounded), so the
// frame is unbroken whatever the font. Coordinates are in half pixels.
func writeBoxLines(b *bytes.Buffer, cells [][]picCell) {
	paths := map[boxStroke]*bytes.Buffer{}
	add := func(st boxStroke, format string, a ...any) {
		p := paths[st]
		if p == nil {
			p = &bytes.Buffer{}
			paths[st] = p
		}
		fmt.Fprintf(p, format, a...)
	}
	for y, row := range cells {
		for x := 0; x < len(row); x++ {
			arms, ok := boxChars[row[x].text]
			if !ok {
				continue
			}
			l, r := 2*x*pictureCellW, 2*(x+1)*pictureCellW
			t, bot := 2*y*pictureCellH, 2*(y+1)*pictureCellH
			cx, cy := (l+r)/2, (t+bot)/2
			c := row[x].fg
			switch {
			case arms.left != 0 && arms.left == arms.right && arms.up == 0 && arms.down == 0:
				// A horizontal line: one segment to the end of the run.
				end := x
				for end+1 < len(row) && boxChars[row[end+1].text] == arms && row[end+1].fg == c {
					end++
				}
				add(boxStroke{c, arms.left}, "M%s %sH%s", num(l), num(cy), num(2*(end+1)*pictureCellW))
				x = end
			case isVertical(arms):
				// A vertical line: drawn by the column pass below.
			case isCorner(arms):
				writeCorner(add, c, arms, l, r, t, bot)
			default:
				for _, a := range []struct {
					w              uint8
					x0, y0, x1, y1 int
				}{{arms.up, cx, t, cx, cy}, {arms.right, cx, cy, r, cy}, {arms.down, cx, cy, cx, bot}, {arms.left, l, cy, cx, cy}} {
					if a.w != 0 {
						add(boxStroke{c, a.w}, "M%s %sL%s %s", num(a.x0), num(a.y0), num(a.x1), num(a.y1))
					}
				}
			}
		}
	}
	for x := 0; len(cells) > 0 && x < len(cells[0]); x++ {
		cx := (2*x + 1) * pictureCellW
		for y := 0; y < len(cells); y++ {
			arms, c := boxChars[cells[y][x].text], cells[y][x].fg
			if !isVertical(arms) {
				continue
			}
			end := y
			for end+1 < len(cells) && x < len(cells[end+1]) && boxChars[cells[end+1][x].text] == arms && cells[end+1][x].fg == c {
				end++
			}
			add(boxStroke{c, arms.up}, "M%s %sV%s", num(cx), num(2*y*pictureCellH), num(2*(end+1)*pictureCellH))
			y = end
		}
	}
	keys := make([]boxStroke, 0, len(paths))
	for k := range paths {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b boxStroke) int {
		return cmpInts(int(a.weight), int(b.weight), int(a.colour.r), int(b.colour.r), int(a.colour.g), int(b.colour.g), int(a.colour.b), int(b.colour.b))
	})
	for _, k := range keys {
		fmt.Fprintf(b, `<path d="%s" fill="none" stroke="%s" stroke-width="%s"/>`+"\n", paths[k].String(), hexRGB(k.colour), strokeWidth(k.weight))
	}
}

// cmpInts compares pairs (a1, b1), (a2, b2) … in order: the first pair
// that differs decides.
func cmpInts(pairs ...int) int {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i] != pairs[i+1] {
			return pairs[i] - pairs[i+1]
		}
	}
	return 0
}

// isVertical tells whether arms are a straight vertical line.
func isVertical(a boxArms) bool { return a.up != 0 && a.up == a.down && a.left == 0 && a.right == 0 }

// isCorner tells whether arms are one vertical and one horizontal arm of
// the same weight.
func isCorner(a boxArms) bool {
	v, h := a.up|a.down, a.left|a.right
	return (a.up == 0) != (a.down == 0) && (a.left == 0) != (a.right == 0) && v == h
}

// writeCorner draws a corner as one path from its horizontal arm's edge,
// through the middle (or a quarter curve round it), to its vertical arm's
// edge.
func writeCorner(add func(boxStroke, string, ...any), c rgb, a boxArms, l, r, t, bot int) {
	cx, cy := (l+r)/2, (t+bot)/2
	hx, sx := l, -1 // the horizontal arm's edge, and the side it is on
	if a.right != 0 {
		hx, sx = r, 1
	}
	vy, sy := t, -1
	if a.down != 0 {
		vy, sy = bot, 1
	}
	st := boxStroke{c, a.up | a.down}
	if !a.round {
		add(st, "M%s %sH%sV%s", num(hx), num(cy), num(cx), num(vy))
		return
	}
	rad := pictureCellW // half a cell's width, in half pixels
	add(st, "M%s %sH%sQ%s %s %s %sV%s", num(hx), num(cy), num(cx+sx*rad), num(cx), num(cy), num(cx), num(cy+sy*rad), num(vy))
}
