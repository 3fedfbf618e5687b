package sanitize

import "github.com/charmbracelet/x/ansi"

// escapeKind says what the bytes starting at an ESC are.
type escapeKind uint8

const (
	// dropSequence: a sequence (complete, malformed or cut off by the end
	// of the line) that is removed whole.
	dropSequence escapeKind = iota
	// loneEscape: the ESC starts no sequence; only the ESC is consumed.
	loneEscape
	// sgrSequence: ESC [ params m with params made only of digits, ':'
	// and ';' (no private prefix, no intermediates).
	sgrSequence
)

// escapeAt classifies the escape sequence at the start of b, which must
// begin with ESC, and returns how many bytes it spans (at least 1).
//
// Boundaries come from ansi.DecodeSequence, called without a *ansi.Parser:
// with one, v0.11.9 indexes its params buffer out of range on a CSI with more
// parameters than the buffer holds, and SGR parameters are read from the
// bytes instead (appendSGR).
func escapeAt(b []byte) (int, escapeKind) {
	seq, _, n, state := ansi.DecodeSequence(b, ansi.NormalState, nil)
	if n <= 1 {
		// ESC followed by a byte no sequence continues with, or ESC as
		// the last byte of the line.
		return 1, loneEscape
	}
	if state != ansi.NormalState {
		// Cut off by the end of the line: everything left is payload.
		return len(b), dropSequence
	}
	switch b[1] {
	case '[':
		if isSGR(seq) {
			return n, sgrSequence
		}
	case ']', 'P', 'X', '^', '_':
		if seq[len(seq)-1] == ansi.ST {
			// DecodeSequence ends string sequences at a raw 0x9C, the
			// 8-bit ST. In UTF-8 that byte is a continuation byte of
			// many characters ("本" is E6 9C AC), and UTF-8 terminals
			// (xterm, tmux) do not end the string there, so the rest
			// of the payload would show as text. Find the 7-bit end.
			return stringEnd(b), dropSequence
		}
	}
	return n, dropSequence
}

// isSGR reports whether seq (a complete sequence from DecodeSequence that
// starts with ESC [) is a plain SGR: final 'm', parameters only digits, ':'
// and ';'.
func isSGR(seq []byte) bool {
	if len(seq) < 3 || seq[len(seq)-1] != 'm' {
		return false
	}
	for _, c := range seq[2 : len(seq)-1] {
		if c < '0' || c > ';' {
			return false
		}
	}
	return true
}

// stringEnd returns the length of the string sequence (OSC, DCS, APC, SOS,
// PM) at the start of b, with the terminators ansi.DecodeSequence uses except
// the 8-bit ST: BEL ends an OSC, ESC \ ends any, CAN, SUB and any other ESC
// cancel it (and are not part of it). Without a terminator the sequence runs
// to the end of b.
func stringEnd(b []byte) int {
	osc := ansi.HasOscPrefix(b)
	for i := 2; i < len(b); i++ {
		switch b[i] {
		case ansi.BEL:
			if osc {
				return i + 1
			}
		case ansi.CAN, ansi.SUB:
			return i
		case ansi.ESC:
			if i+1 < len(b) && b[i+1] == '\\' {
				return i + 2
			}
			return i
		}
	}
	return len(b)
}
