package ui

import (
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Search highlights: every match of the active search in the lines in
// view is drawn in reverse video, the current match's line's matches also
// underlined. The job's colours stay: the highlight opens at a match's
// start, closes at its end with the codes that undo only itself, and opens
// again after any reset of the job's inside a match.

const (
	matchOpen, matchClose = "\x1b[7m", "\x1b[27m"
	curOpen, curClose     = "\x1b[4;7m", "\x1b[24;27m"
)

// highlight returns s (text and SGR sequences, as styledLine returns it)
// with every non-empty match of re in its text wrapped in open and close;
// s itself when nothing matches.
func highlight(s string, re *regexp.Regexp, open, close string) string {
	plain := s
	if strings.IndexByte(s, ansi.ESC) >= 0 {
		plain = ansi.Strip(s)
	}
	spans := re.FindAllStringIndex(plain, -1)
	spans = slicesDeleteEmpty(spans)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(spans)*(len(open)+len(close)))
	pos, k, in := 0, 0, false // pos: offset in plain; spans[k]: the next or current match
	state := byte(0)
	for len(s) > 0 {
		seq, cw, n, next := ansi.DecodeSequence(s, state, nil)
		state = next
		s = s[n:]
		if cw == 0 && len(seq) > 0 && seq[0] == ansi.ESC {
			b.WriteString(seq)
			if in && isReset(seq) {
				b.WriteString(open) // the job reset its style inside a match
			}
			continue
		}
		for !in && k < len(spans) && spans[k][1] <= pos {
			k++ // a match inside the last character
		}
		if !in && k < len(spans) && pos >= spans[k][0] {
			b.WriteString(open)
			in = true
		}
		b.WriteString(seq)
		pos += len(seq)
		if in && pos >= spans[k][1] {
			b.WriteString(close)
			in = false
			k++
		}
	}
	if in {
		b.WriteString(close)
	}
	return b.String()
}

// slicesDeleteEmpty drops the empty matches (a pattern like "x*" matches
// nothing everywhere).
func slicesDeleteEmpty(spans [][]int) [][]int {
	out := spans[:0]
	for _, sp := range spans {
		if sp[1] > sp[0] {
			out = append(out, sp)
		}
	}
	return out
}
