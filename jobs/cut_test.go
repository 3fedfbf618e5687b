package jobs

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jobdeck/jobdeck/model"
)

// TestCutAround: a grep match's line is cut around the match when the
// middle cut would hide it, on rune boundaries, with every byte counted.
func TestCutAround(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`NEEDLE[0-9]*`)
	cases := []struct {
		name, text string
		want       string // in the kept text
	}{
		{"in the middle", strings.Repeat("é", 3000) + "NEEDLE" + strings.Repeat("ü", 3000), "NEEDLE"},
		{"near the start: the middle cut", "NEEDLE" + strings.Repeat("x", 5000), "NEEDLE"},
		{"near the end: the middle cut", strings.Repeat("x", 5000) + "NEEDLE", "NEEDLE"},
		{"longer than the window", strings.Repeat("x", 3000) + "NEEDLE" + strings.Repeat("7", 3000) + strings.Repeat("y", 3000), "NEEDLE777"},
	}
	for _, c := range cases {
		var l model.Line
		cutAround(&l, []byte(c.text), 1024, re)
		if !bytes.Contains(l.Text, []byte(c.want)) || !utf8.Valid(l.Text) || len(l.Text) > 1024 {
			t.Errorf("%s: %d bytes kept, valid %v, %q in view: %v", c.name, len(l.Text), utf8.Valid(l.Text), c.want, bytes.Contains(l.Text, []byte(c.want)))
		}
		if int64(len(l.Text))+l.Cut+l.Dropped != int64(len(c.text)) {
			t.Errorf("%s: %d kept + %d cut + %d dropped != %d", c.name, len(l.Text), l.Cut, l.Dropped, len(c.text))
		}
		if !strings.HasPrefix(c.text, string(l.Text[:l.CutAt])) {
			t.Errorf("%s: the head is not the line's start", c.name)
		}
	}
	// Negative control: the middle cut alone hides the first case's match.
	var l model.Line
	cutCopy(&l, []byte(cases[0].text), 1024)
	if bytes.Contains(l.Text, []byte("NEEDLE")) {
		t.Error("the middle cut shows the match: the first case tests nothing")
	}
}

// TestBudgetCountsPlainText: the byte budget and the per-line cut count
// the plain text a reader shows, so escape sequences neither spend the
// budget nor are split by a cut.
func TestBudgetCountsPlainText(t *testing.T) {
	t.Parallel()
	// 100 'w's, each in its own colour (11 bytes raw), then " END": 1,104
	// bytes raw, 104 of plain text.
	colourful := []byte(strings.Repeat("\x1b[38;5;71mw", 100) + " END")
	var l model.Line
	cutCopy(&l, colourful, 64)
	if bytes.ContainsAny(l.Text, "\x1b;[") || !bytes.HasSuffix(l.Text, []byte("www END")) || !bytes.HasPrefix(l.Text, []byte("www")) {
		t.Errorf("cut to 64: %q, want plain head and tail with no escape in them", l.Text)
	}
	if len(l.Text) != 64 || int64(len(l.Text))+l.Cut != 104 || l.CutAt != 32 {
		t.Errorf("cut to 64: %d kept + %d cut (at %d), want 64 + 40 of 104 plain bytes", len(l.Text), l.Cut, l.CutAt)
	}
	// A line whose plain text fits is kept whole, escapes and all.
	bold := []byte(strings.Repeat("\x1b[1m\x1b[32m", 300) + "PASS ok")
	l = model.Line{}
	cutCopy(&l, bold, 256)
	if !bytes.Equal(l.Text, bold) || l.Cut != 0 {
		t.Errorf("2,707 raw bytes of 7 plain: kept %d bytes, cut %d", len(l.Text), l.Cut)
	}
	// A grep window is found and cut in plain text too.
	l = model.Line{}
	cutAround(&l, []byte(strings.Repeat("\x1b[31mx", 400)+"NEEDLE"+strings.Repeat("\x1b[32my", 400)), 64, regexp.MustCompile("NEEDLE"))
	if !bytes.Contains(l.Text, []byte("NEEDLE")) || bytes.ContainsAny(l.Text, "\x1b[") || int64(len(l.Text))+l.Cut+l.Dropped != 806 {
		t.Errorf("grep window: %q, %d cut, %d dropped", l.Text, l.Cut, l.Dropped)
	}
	// Control pictures are three bytes of plain text for one raw byte: a
	// line of 40 BELs is 120 bytes shown, over a budget of 100.
	l = model.Line{}
	cutCopy(&l, bytes.Repeat([]byte{7}, 40), 100)
	if l.Cut == 0 || len(l.Text) > 100 || !utf8.Valid(l.Text) {
		t.Errorf("40 BELs cut to 100: %d kept, %d cut, valid %v", len(l.Text), l.Cut, utf8.Valid(l.Text))
	}

	// The result's budget: 300 lines of 11 plain bytes in 41 raw each
	// (12.3 KB raw, 3.3 KB plain) all fit 8 KiB.
	tb := finishedJob(t, `for i in $(seq 100 399); do printf '\033[1m\033[32mok\033[0m \033[2mline\033[0m \033[36m%s\033[0m\n' $i; done`)
	r, err := tb.Status(t.Context(), 0, model.StatusOptions{Lines: 2000, MaxBytes: 8 << 10, LineBytes: 512})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.Page.Lines); n != 300 || r.Page.Skipped != 0 {
		t.Fatalf("8 KiB of a 3.3 KB plain page: %d of 300 lines, %d skipped", n, r.Page.Skipped)
	}
	// Negative control: 2 KiB holds only the newest of them.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Lines: 2000, MaxBytes: 2 << 10, LineBytes: 512})
	if n := len(r.Page.Lines); n != 186 || r.Page.Skipped != 114 {
		t.Fatalf("2 KiB: %d lines, %d skipped; want the newest 186 (2048/11)", n, r.Page.Skipped)
	}
}
