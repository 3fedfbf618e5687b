package jobs

// Searching and budgeted copies of the ring: grep, until and the report's
// line selection look at lines in place (under the ring's lock, a chunk at
// a time) and copy only what they return, so a search of a full ring or a
// report with a byte budget costs no more memory than its answer.

import (
	"bytes"
	"regexp"
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
)

// scanChunk is how many lines a search looks at per hold of the ring's
// lock: the job's reader goroutines never wait longer than one chunk.
const scanChunk = 256

// matcher matches the plain text of raw lines against a pattern, reusing
// one buffer for the sanitised text.
type matcher struct {
	re  *regexp.Regexp
	buf []byte
}

func (m *matcher) match(raw []byte) bool {
	m.buf = sanitize.AppendPlain(m.buf[:0], raw)
	return m.re.Match(m.buf)
}

// heldLocked returns the seqs of the oldest and newest complete lines held
// (first > last when none). r.mu must be held and runs materialized.
func (r *ring) heldLocked() (first, last uint64) {
	return r.firstSeq(), r.last
}

// entryLocked returns the entry of the complete line seq, if it is held.
// r.mu must be held and runs materialized.
func (r *ring) entryLocked(seq uint64) (entry, bool) {
	if r.entries.len() == 0 {
		return entry{}, false
	}
	first := r.entries.front().seq
	if seq < first || seq >= first+uint64(r.entries.len()) {
		return entry{}, false
	}
	return *r.entries.at(int(seq - first)), true
}

// textLocked is an entry's bytes in the arena (valid while r.mu is held).
func (r *ring) textLocked(e entry) []byte {
	off := int(e.abs % int64(len(r.arena)))
	return r.arena[off : off+e.n]
}

// grepSeqs returns the seqs of the complete lines in (after, to] whose
// plain text m matches, oldest first, and to itself: the newest seq held
// when the search began (after when nothing newer was). Lines evicted
// while the search runs are passed over.
func (r *ring) grepSeqs(m *matcher, after uint64) (seqs []uint64, to uint64) {
	r.mu.Lock()
	r.materialize()
	to = max(r.last, after)
	r.mu.Unlock()
	for next := after + 1; next <= to; {
		r.mu.Lock()
		r.materialize()
		first, _ := r.heldLocked()
		next = max(next, first)
		end := min(to, next+scanChunk-1)
		for s := next; s <= end; s++ {
			if e, ok := r.entryLocked(s); ok && m.match(r.textLocked(e)) {
				seqs = append(seqs, s)
			}
		}
		r.mu.Unlock()
		next = end + 1
	}
	return seqs, to
}

// newestMatch returns a copy of the newest line after the cursor that m
// matches: an open line first (they are the newest), else the newest
// complete line with a seq in (after, last]. last is the newest seq held
// when the search began: the cursor for the next search when nothing
// matched. The copy is cut to lineBytes (zero: whole).
func (r *ring) newestMatch(m *matcher, after uint64, lineBytes int) (match *model.Line, last uint64) {
	r.mu.Lock()
	r.materialize()
	last = max(r.last, after)
	var open *openLine
	for s := range r.open {
		o := &r.open[s]
		if o.active() && m.match(o.buf[:visible(o.buf)]) && (open == nil || o.time > open.time) {
			open = o
		}
	}
	if open != nil {
		l := model.Line{Stream: model.StreamOut, Time: time.Unix(0, open.time), Dropped: open.dropped, Partial: true}
		if open == &r.open[model.StreamErr] {
			l.Stream = model.StreamErr
		}
		cutCopy(&l, open.buf[:visible(open.buf)], lineBytes)
		r.mu.Unlock()
		return &l, last
	}
	r.mu.Unlock()
	for hi := last; hi > after; {
		r.mu.Lock()
		r.materialize()
		first, _ := r.heldLocked()
		lo := max(after+1, first, hi-min(hi, scanChunk)+1)
		for s := hi; s >= lo && s > 0; s-- {
			e, ok := r.entryLocked(s)
			if ok && m.match(r.textLocked(e)) {
				l := lineOf(e)
				cutCopy(&l, r.textLocked(e), lineBytes)
				r.mu.Unlock()
				return &l, last
			}
		}
		r.mu.Unlock()
		if lo <= max(after+1, first) {
			break
		}
		hi = lo - 1
	}
	return nil, last
}

// lineOf is an entry's line without its text.
func lineOf(e entry) model.Line {
	return model.Line{Seq: e.seq, Stream: e.stream, Time: time.Unix(0, e.time), Dropped: e.dropped}
}

// cutSize is how many bytes a line of n bytes keeps under a per-line
// budget (zero: no budget).
func cutSize(n, lineBytes int) int {
	if lineBytes > 0 && n > lineBytes {
		return lineBytes
	}
	return n
}

// overBudget returns the plain text of text (sanitize.Plain: what a reader
// of a budgeted read shows) when it is longer than lineBytes (> 0), and
// reports whether it is. Plain text is at most three bytes per raw byte
// (a control picture or U+FFFD for one byte), so a short line is passed
// without a look.
func overBudget(text []byte, lineBytes int) ([]byte, bool) {
	if lineBytes <= 0 || 3*len(text) <= lineBytes {
		return nil, false
	}
	p := sanitize.AppendPlain(nil, text)
	return p, len(p) > lineBytes
}

// cutCopy sets l.Text to a copy of text or, when its plain text is longer
// than lineBytes (> 0), to that plain text's head and tail with the middle
// cut out (Line.Cut, Line.CutAt, in bytes of plain text), each cut on a
// UTF-8 rune boundary. The budget counts and cuts the text a reader shows:
// cut through the raw bytes, a colour-heavy line would spend the budget on
// escape sequences and split one, showing its tail as text
// (ARCHITECTURE.md §5).
func cutCopy(l *model.Line, text []byte, lineBytes int) {
	p, over := overBudget(text, lineBytes)
	if !over {
		l.Text = bytes.Clone(text)
		return
	}
	cutMiddle(l, p, lineBytes)
}

// cutMiddle sets l.Text to the head and tail of p (longer than lineBytes),
// reusing p's bytes.
func cutMiddle(l *model.Line, p []byte, lineBytes int) {
	head := runeStart(p, lineBytes/2)
	tail := len(p) - (lineBytes - head)
	for tail < len(p) && !utf8RuneStart(p[tail]) {
		tail++
	}
	n := copy(p[head:], p[tail:])
	l.Text = p[: head+n : head+n]
	l.CutAt = head
	l.Cut = int64(tail - head)
}

// utf8RuneStart reports whether b can start a UTF-8 sequence.
func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// cutAround is cutCopy for a line re matched: when the middle cut would
// hide the plain text's first match, it keeps a quarter of lineBytes of
// the head, cuts to a window around the match (Line.Cut, Line.CutAt) and
// cuts the rest of the line from the end (counted in Line.Dropped), all in
// bytes of plain text.
func cutAround(l *model.Line, text []byte, lineBytes int, re *regexp.Regexp) {
	p, over := overBudget(text, lineBytes)
	if !over {
		l.Text = bytes.Clone(text)
		return
	}
	var loc []int
	if re != nil {
		loc = re.FindIndex(p)
	}
	half := runeStart(p, lineBytes/2)
	if loc == nil || loc[1] <= half || loc[0] >= len(p)-(lineBytes-half) {
		cutMiddle(l, p, lineBytes) // the match is in the head or tail kept
		return
	}
	head := runeStart(p, lineBytes/4)
	w := lineBytes - head
	ws := max(head, min(loc[0]-max(w-(loc[1]-loc[0]), 0)/2, len(p)-w))
	for ws < len(p) && !utf8RuneStart(p[ws]) {
		ws++
	}
	we := runeStart(p, min(len(p), ws+w))
	n := copy(p[head:], p[ws:we])
	l.Text = p[: head+n : head+n]
	l.CutAt = head
	l.Cut = int64(ws - head)
	l.Dropped += int64(len(p) - we)
}
