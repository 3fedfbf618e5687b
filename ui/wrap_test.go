package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/jobdeck/jobdeck/model"
)

// TestWrapStyled checks the wrapper on its own: rows of at most w cells
// whose text joins back to the line, colours re-opened on each row that
// starts inside them and closed at the end of each row that ends inside
// them, wide characters moved whole to the next row.
func TestWrapStyled(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		w    int
		want []string
	}{
		{"", 5, []string{""}},
		{"short", 10, []string{"short"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"\x1b[31mred text\x1b[m plain", 5, []string{"\x1b[31mred t\x1b[m", "\x1b[31mext\x1b[m p", "lain"}},
		{"\x1b[1mbold \x1b[32mgreen\x1b[m", 4, []string{"\x1b[1mbold\x1b[m", "\x1b[1m \x1b[32mgre\x1b[m", "\x1b[1m\x1b[32men\x1b[m"}},
		{"日本語です", 5, []string{"日本", "語で", "す"}},
		{"ab日本", 3, []string{"ab", "日", "本"}},
	}
	for _, c := range cases {
		got := wrapStyled(c.in, c.w)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrapStyled(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
		var plain strings.Builder
		for _, r := range got {
			if w := ansi.StringWidth(r); w > c.w {
				t.Errorf("wrapStyled(%q, %d): row %q is %d cells", c.in, c.w, r, w)
			}
			plain.WriteString(ansi.Strip(r))
		}
		if plain.String() != ansi.Strip(c.in) {
			t.Errorf("wrapStyled(%q, %d) lost text: %q", c.in, c.w, plain.String())
		}
	}
}

// longLines are lines wider than any pane: a coloured log line, a stderr
// stack frame, a URL and CJK text.
var longLines = []string{
	"\x1b[2m12:00:01\x1b[22m \x1b[32mINFO\x1b[39m request \x1b[36mGET /api/items?page=2&sort=name&filter=active&fields=id,name,price,stock,updated_at\x1b[39m took \x1b[33m12ms\x1b[39m status=200",
	"short line",
	"https://example.com/a/very/long/path/that/goes/on/and/on/for/quite/a/while/before/it/finally/ends/index.html",
	"日本語のログ行はとても長くて、ペインの幅を超えてしまうので折り返して表示されます。",
}

// wrapCore is a fake core with one job of long lines (and a stderr one)
// beside one of short lines.
func wrapCore() *fakeCore {
	c := newFakeCore(fixedNow)
	id := c.add(model.Snapshot{Command: "npm run serve", State: model.StateRunning, Started: t0, TTY: true}, 0)
	c.emit(id, model.StreamOut, longLines...)
	c.emit(id, model.StreamErr, "    at Object.<anonymous> (/home/dev/app/node_modules/some-package/lib/deeply/nested/module.js:123:45)")
	c.emit(id, model.StreamOut, "ready")
	id = c.add(model.Snapshot{Command: "make watch", State: model.StateRunning, Started: t0.Add(5e9), TTY: true}, 0)
	c.emit(id, model.StreamOut, "watching 12 files", "\x1b[32mbuild ok\x1b[m in 0.4s")
	return c
}

// TestGoldenWrap: w in the focused pane (job 0) wraps its long lines, the
// other pane still cuts them, and the pane's bottom edge says "wrap", at
// three sizes.
func TestGoldenWrap(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		name := fmt.Sprintf("view_%dx%d_wrap", size[0], size[1])
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, wrapCore(), size[0], size[1], Options{})
			h.press("w")
			s := h.screen()
			if !strings.Contains(s, "wrap") {
				t.Errorf("the wrapped pane does not say so:\n%s", s)
			}
			checkGolden(t, name+".golden", s)
		})
	}
}

// TestWrapKey covers w: it toggles the focused pane only, each pane keeps
// its own setting as the focus moves, a wrapped pane that follows ends
// with the newest line and a paused one starts with its top line, and w
// in an overlay wraps the overlay (its scroll reaches the last line).
func TestWrapKey(t *testing.T) {
	t.Parallel()
	h := newHarness(t, wrapCore(), 80, 24, Options{})
	cut := h.screen()
	if !strings.Contains(cut, "…") {
		t.Fatalf("long lines should be cut without wrap:\n%s", cut)
	}
	h.press("w")
	if !h.m.wrap[0] || h.m.wrap[1] {
		t.Fatalf("w should wrap the focused pane (job 0) only: %v", h.m.wrap)
	}
	s := h.screen()
	if !strings.Contains(s, "ready") {
		t.Errorf("a following wrapped pane should end with the newest line:\n%s", s)
	}
	h.press("tab", "w", "w", "tab")
	if !h.m.wrap[0] || h.m.wrap[1] {
		t.Errorf("each pane keeps its own wrap: %v", h.m.wrap)
	}
	h.press("home") // paused at the oldest line: it starts the pane
	s = h.screen()
	if !strings.Contains(s, "12:00:01 INFO request") || !strings.Contains(s, "wrap · paused") {
		t.Errorf("a paused wrapped pane should start with its top line and say so:\n%s", s)
	}
	h.press("w")
	if h.m.wrap[0] {
		t.Error("w again should stop wrapping")
	}

	// The /job-status overlay wraps too, and scrolls to its last line.
	h.command("job-status 0")
	if h.m.overlay == nil {
		t.Fatal("no overlay")
	}
	h.press("w")
	if !h.m.overlay.wrap {
		t.Fatal("w in an overlay should wrap it")
	}
	h.press("end")
	s = h.screen()
	if !strings.Contains(s, "wrap · ") || !strings.Contains(s, "ready") {
		t.Errorf("the wrapped overlay scrolled to the end should show its last line:\n%s", s)
	}
	h.send(frameMsg{}) // a newer report keeps the overlay's wrap
	if !h.m.overlay.wrap {
		t.Error("a newer report dropped the overlay's wrap")
	}
}

// TestCutLineMarker: a line the ring cut at its line limit (Line.Dropped)
// ends with "[… 47.7 MiB cut]" in its pane, in view however long the line
// is, and in a wrapped pane after the whole line.
func TestCutLineMarker(t *testing.T) {
	t.Parallel()
	c := newFakeCore(fixedNow)
	id := c.add(model.Snapshot{Command: "big", State: model.StateRunning, Started: t0, TTY: true}, 0)
	c.emit(id, model.StreamOut, "before", strings.Repeat("x", 16384), "after")
	c.mu.Lock()
	c.jobs[id].ring[1].Dropped = 50_000_000
	c.mu.Unlock()
	h := newHarness(t, c, 80, 24, Options{})
	if s := h.screen(); !strings.Contains(s, "x… [… 47.7 MiB cut]") {
		t.Fatalf("the cut line should end with its marker:\n%s", s)
	}
	h.press("w")
	s := h.screen()
	if !strings.Contains(s, "x [… 47.7 MiB cut]") {
		t.Fatalf("the wrapped cut line should end with its marker:\n%s", s)
	}
}

// TestOverlayTallLine: a wrapped overlay whose line is taller than the
// overlay (a long command in /job-status) scrolls within that line, row
// by row, to its end; it used to show only the line's first rows.
func TestOverlayTallLine(t *testing.T) {
	t.Parallel()
	c := newFakeCore(fixedNow)
	cmd := "echo START " + strings.Repeat("word ", 600) + "THE-END"
	c.add(model.Snapshot{Command: cmd, State: model.StateRunning, Started: t0, TTY: true}, 0)
	h := newHarness(t, c, 80, 24, Options{})
	h.press("/")
	h.typeText("job-status 0")
	h.press("enter", "w")
	if h.m.overlay == nil || !h.m.overlay.wrap {
		t.Fatal("no wrapped overlay")
	}
	h.press("end")
	if s := h.screen(); !strings.Contains(s, "THE-END") {
		t.Fatalf("End in a wrapped overlay should reach the end of its tall line:\n%s", s)
	}
	h.press("home")
	for range 200 {
		if strings.Contains(h.screen(), "THE-END") {
			return
		}
		h.press("down")
	}
	t.Fatalf("↓ row by row never reached the end of the tall line:\n%s", h.screen())
}
