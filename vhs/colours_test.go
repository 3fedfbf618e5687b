//go:build unix

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
// and their own colours (plain text stays plain: no tint). With NO_COLOR set the same
// cells have no colour at all: the negative control.
func TestColoursReachThePane(t *testing.T) {
	t.Parallel()
	basic := func(n int) color.Color { return ansi.BasicColor(n) }
	type cellWant struct {
		text     string // the first cell of this text on screen is checked, or of at in it
		at       string
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
		{text: "an unclosed cyan", at: "cyan", fg: basic(6)},
		{text: "plain: the pane closed"},
		{text: "colours: stdout done"},
		{text: "warning: this line went to stderr", gutterFg: true}, // the mark tinted, the text plain
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
				plain = append(plain, cellWant{text: c.text, at: c.at})
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
			// The launch start's report comes after its short wait and
			// selects job 0; wait for it, or it could land after the palette
			// start below and move the selection.
			waitScreen(t, term, "Screen", `\n1/8 running · 0 finished  job 0 running`, 15*time.Second)
			typeLine(term, ":background touch ~/colours.next")
			waitScreen(t, term, "Screen", `colours: exiting 2`, 15*time.Second)
			waitScreen(t, term, "Screen", `\n0/8 running · 2 finished`, 15*time.Second)
			if err := term.Settle(100*time.Millisecond, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.cells {
				fg, bg, gutter, ok := cellColours(term, want.text, want.at)
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

// cellColours finds text on screen and returns the colours of its first
// cell (or of the first cell of at within it) and the foreground of the
// cell two to the left of text (a pane's "!" gutter).
func cellColours(term *Term, text, at string) (fg, bg, gutter color.Color, ok bool) {
	term.screenMu.RLock()
	defer term.screenMu.RUnlock()
	for y, l := range term.linesLocked() {
		i := strings.Index(l, text)
		if i < 0 {
			continue
		}
		// Every cell left of the text holds one single-width rune.
		x := len([]rune(l[:i]))
		if g := term.emu.CellAt(x-2, y); x >= 2 && g != nil && g.Content == "!" {
			gutter = g.Style.Fg
		}
		if j := strings.Index(text, at); at != "" && j >= 0 {
			x += len([]rune(text[:j]))
		}
		c := term.emu.CellAt(x, y)
		if c == nil {
			return nil, nil, nil, false
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
