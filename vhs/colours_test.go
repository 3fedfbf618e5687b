package vhs

import (
	"fmt"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestColoursReachThePane runs the story of stderr-colours.tape and checks
// what its text goldens cannot: the colours on screen, cell by cell. A job's
// SGR colours reach its pane (basic, 256-colour, background), an unclosed
// colour stops at the end of its line, stderr lines carry a coloured "!"
// and a tint unless they bring their own colour. With NO_COLOR set the same
// cells have no colour at all: the negative control.
func TestColoursReachThePane(t *testing.T) {
	t.Parallel()
	basic := func(n int) color.Color { return ansi.BasicColor(n) }
	type cellWant struct {
		text     string      // the first cell of this text on screen is checked
		fg, bg   color.Color // nil: no colour expected
		anyFg    bool        // some foreground, whichever (a tint or a downsampled colour)
		gutterFg bool        // the stderr "!" two cells before text has a colour
	}
	colour := []cellWant{
		{text: "red green", fg: basic(1)},
		{text: "green blue", fg: basic(2)},
		{text: "256-colour orange", fg: ansi.IndexedColor(208)},
		{text: "truecolour pink", anyFg: true},
		{text: "white on red", fg: basic(15), bg: basic(1)},
		{text: "cyan\n", fg: basic(6)},
		{text: "plain: the pane closed"},
		{text: "colours: stdout done"},
		{text: "warning: this line went to stderr", anyFg: true, gutterFg: true},
		{text: "error: coloured stderr", fg: basic(5), gutterFg: true},
	}
	for _, tc := range []struct {
		name    string
		noColor bool
		cells   []cellWant
	}{
		{"colour", false, colour},
		{"NO_COLOR", true, func() []cellWant {
			// Every cell plain: no job colour, no tint, no coloured "!".
			var plain []cellWant
			for _, c := range colour {
				plain = append(plain, cellWant{text: c.text})
			}
			return plain
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			term := startShell(t, 100, 30)
			cmd := "jobdeck -- testdata/demo/colours.sh"
			if tc.noColor {
				cmd = "NO_COLOR=1 " + cmd
			}
			typeLine(term, cmd)
			waitScreen(t, term, "Screen", `colours: stdout done`, 15*time.Second)
			typeLine(term, ":background touch ~/colours.next")
			waitScreen(t, term, "Screen", `colours: exiting 2`, 15*time.Second)
			waitScreen(t, term, "Screen", `\n0/8 running · 2 finished`, 15*time.Second)
			if err := term.Settle(100*time.Millisecond, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.cells {
				fg, bg, gutter, ok := cellColours(term, strings.TrimSuffix(want.text, "\n"), strings.HasSuffix(want.text, "\n"))
				if !ok {
					t.Errorf("%q not on screen:\n%s", want.text, frame(term.Lines()))
					continue
				}
				switch {
				case want.anyFg && fg == nil:
					t.Errorf("%q: no foreground colour, want one", want.text)
				case !want.anyFg && !sameColour(fg, want.fg):
					t.Errorf("%q: foreground %v, want %v", want.text, fg, want.fg)
				}
				if !sameColour(bg, want.bg) {
					t.Errorf("%q: background %v, want %v", want.text, bg, want.bg)
				}
				if want.gutterFg != (gutter != nil) {
					t.Errorf("%q: stderr mark colour %v, want coloured: %v", want.text, gutter, want.gutterFg)
				}
			}
			term.SendText("q")
			waitScreen(t, term, "Line", `>$`, 15*time.Second)
		})
	}
}

// cellColours finds text on screen (the last occurrence on its line when
// atEnd, as a line's last word) and returns the colours of its first cell and
// the foreground of the cell two to its left (a pane's "!" gutter).
func cellColours(term *Term, text string, atEnd bool) (fg, bg, gutter color.Color, ok bool) {
	term.screenMu.RLock()
	defer term.screenMu.RUnlock()
	for y, l := range term.linesLocked() {
		i := strings.Index(l, text)
		if atEnd {
			i = strings.LastIndex(l, text)
			if i < 0 || !strings.HasPrefix(strings.TrimSpace(l[i+len(text):]), "┃") && strings.TrimSpace(l[i+len(text):]) != "" {
				continue
			}
		}
		if i < 0 {
			continue
		}
		// Every cell left of the text holds one single-width rune.
		x := len([]rune(l[:i]))
		c := term.emu.CellAt(x, y)
		if c == nil {
			return nil, nil, nil, false
		}
		if g := term.emu.CellAt(x-2, y); x >= 2 && g != nil && g.Content == "!" {
			gutter = g.Style.Fg
		}
		return c.Style.Fg, c.Style.Bg, gutter, true
	}
	return nil, nil, nil, false
}

// sameColour compares two colours by value (nil only equals nil).
func sameColour(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return fmt.Sprint(a.RGBA()) == fmt.Sprint(b.RGBA())
}
