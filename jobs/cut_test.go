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
