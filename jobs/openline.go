package jobs

import (
	"bytes"
	"unicode/utf8"
)

// openLine is a stream's line that has no newline yet. cr records a \r
// that ended the text so far: the next byte other than '\n' starts the line
// anew, and a '\n' ends it unchanged.
type openLine struct {
	buf     []byte
	dropped int64
	cr      bool
	time    int64
}

func (o *openLine) active() bool { return len(o.buf) > 0 || o.dropped > 0 }

func (o *openLine) reset() {
	o.buf = o.buf[:0]
	o.dropped = 0
	o.cr = false
}

// feed adds p, which holds no '\n', to the open line.
func (o *openLine) feed(p []byte) {
	trail := 0
	for trail < len(p) && p[len(p)-1-trail] == '\r' {
		trail++
	}
	body := p[:len(p)-trail]
	if len(body) > 0 {
		if k := lastCR(body); k >= 0 {
			o.reset()
			body = body[k+1:]
		} else if o.cr {
			o.reset()
		}
		o.cr = false
		switch room := LineCap - len(o.buf); {
		case o.dropped > 0:
			// Once a byte was cut, the rest of the line is cut too:
			// what is kept must be the line's head.
			o.dropped += int64(len(body))
		case len(body) > room:
			cut := runeStart(body, room)
			o.buf = append(o.buf, body[:cut]...)
			o.dropped += int64(len(body) - cut)
			// Do not keep a rune the cut left incomplete.
			if k := heldBack(o.buf); k < len(o.buf) {
				o.dropped += int64(len(o.buf) - k)
				o.buf = o.buf[:k]
			}
		default:
			o.buf = append(o.buf, body...)
		}
	}
	if trail > 0 {
		o.cr = true
	}
}

// lastCR returns the index of the last '\r' in p, or -1; a vectorised
// IndexByte first keeps the common no-\r case fast.
func lastCR(p []byte) int {
	if bytes.IndexByte(p, '\r') < 0 {
		return -1
	}
	return bytes.LastIndexByte(p, '\r')
}

// runeStart returns the largest cut ≤ n (and ≤ len(p)) that does not split
// a UTF-8 sequence of p.
func runeStart(p []byte, n int) int {
	if n >= len(p) {
		return len(p)
	}
	for i := 0; i < utf8.UTFMax-1 && n > 0 && !utf8.RuneStart(p[n]); i++ {
		n--
	}
	return n
}

// heldBack returns how much of an open line can be shown: all of it but a
// trailing UTF-8 sequence that is incomplete and may still be completed by
// the next read.
func heldBack(b []byte) int {
	n := len(b)
	for i := 1; i <= utf8.UTFMax-1 && i <= n; i++ {
		c := b[n-i]
		if c < utf8.RuneSelf {
			return n
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[n-i:]) {
				return n - i
			}
			return n
		}
	}
	return n
}

// maxHeldEscape bounds how much of an open line's end visible holds back
// as an escape sequence still being written: a longer "sequence" is junk
// and is shown (sanitised) as it is.
const maxHeldEscape = 256

// visible returns how much of an open line a reader is shown: all of it
// but what may still be completed by the next read — a trailing UTF-8
// sequence (heldBack), or an escape sequence whose final byte has not come
// yet (a read that split "\x1b[32m" would otherwise show its ESC as a
// glyph until the rest arrived; ECMA-48 §5.4).
func visible(b []byte) int {
	n := heldBack(b)
	from := max(0, n-maxHeldEscape)
	esc := bytes.LastIndexByte(b[from:n], 0x1b)
	if esc < 0 {
		return n
	}
	esc += from
	if escapeComplete(b[esc+1 : n]) {
		return n
	}
	return esc
}

// escapeComplete reports whether seq (what follows an ESC) is a whole
// escape sequence: ESC and one byte, a CSI with its final byte, or an OSC,
// DCS, SOS, PM or APC string with its terminator (BEL or ESC \).
func escapeComplete(seq []byte) bool {
	if len(seq) == 0 {
		return false
	}
	switch seq[0] {
	case '[':
		for _, c := range seq[1:] {
			if c >= 0x40 && c <= 0x7e {
				return true
			}
			if c < 0x20 || c > 0x7e {
				return true // not a CSI byte: a broken sequence, not an unfinished one
			}
		}
		return false
	case ']', 'P', 'X', '^', '_':
		return bytes.IndexByte(seq, 0x07) >= 0 || bytes.Contains(seq, []byte{0x1b, '\\'})
	}
	// ESC, intermediate bytes (0x20–0x2F: "(" of ESC ( B), a final byte.
	for _, c := range seq {
		if c < 0x20 || c > 0x2f {
			return true
		}
	}
	return false
}
