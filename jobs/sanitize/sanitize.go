package sanitize

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"

	"github.com/charmbracelet/x/ansi"
)

// tabStop is the distance between tab stops in Styled, in columns.
const tabStop = 8

// spaces holds enough spaces for one tab expansion.
const spaces = "        "

// replacement is U+FFFD, written for every byte that is not valid UTF-8 and
// for every C1 control.
const replacement = "\uFFFD"

// Plain returns line as plain text for the coding agent: every escape
// sequence dropped, control characters shown as control pictures ("␛", "␇",
// "␀" …), TAB kept, invalid UTF-8 and C1 controls as U+FFFD, bidi controls
// removed. The result is valid UTF-8 with no byte below 0x20 other than TAB.
// See the package documentation for the full contract.
func Plain(line []byte) string {
	if printableASCII(line) {
		return string(line)
	}
	return ownedString(appendSanitized(make([]byte, 0, len(line)+16), line, false))
}

// Styled returns line for the terminal UI: the same as Plain, except that SGR
// sequences (ESC [ params m) are kept in a normalised form and closed with
// "\x1b[m" at the end when they leave any attribute set, and TABs are
// expanded to spaces at 8-column stops (columns as ansi.StringWidth counts
// them). See the package documentation for the full contract.
func Styled(line []byte) string {
	if printableASCII(line) {
		return string(line)
	}
	return ownedString(appendSanitized(make([]byte, 0, len(line)+16), line, true))
}

// AppendPlain appends Plain(line) to dst and returns the extended buffer. It
// allocates only when dst has to grow.
func AppendPlain(dst, line []byte) []byte {
	if printableASCII(line) {
		return append(dst, line...)
	}
	return appendSanitized(dst, line, false)
}

// AppendStyled appends Styled(line) to dst and returns the extended buffer.
// Tab stops are counted from the start of line, not of dst. It allocates
// only when dst has to grow.
func AppendStyled(dst, line []byte) []byte {
	if printableASCII(line) {
		return append(dst, line...)
	}
	return appendSanitized(dst, line, true)
}

// ownedString returns b as a string without copying. Only for buffers this
// package allocated and never touches again (what strings.Builder does).
func ownedString(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// printableASCII reports whether every byte of b is in 0x20-0x7E. It tests
// eight bytes at a time ("hasless" and a high-bit test, Sean Anderson's Bit
// Twiddling Hacks): a byte below 0x20 borrows into its own high bit, a byte
// of 0x7F or above has its high bit set after adding 1.
func printableASCII(b []byte) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	for len(b) >= 8 {
		x := binary.LittleEndian.Uint64(b)
		if ((x-0x20*ones)&^x|(x+ones)|x)&highs != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// appendSanitized is the whole sanitiser: it walks line once, copying
// printable runs, replacing controls and bad bytes, and handing every ESC to
// ansi.DecodeSequence.
func appendSanitized(dst, line []byte, styled bool) []byte {
	seg := len(dst) // Styled: start of the output not yet counted in col
	col := 0        // Styled: display columns before seg
	dirty := false  // Styled: the kept SGRs left an attribute set
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			j := i + 1
			for j < len(line) && line[j] >= 0x20 && line[j] < 0x7f {
				j++
			}
			dst = append(dst, line[i:j]...)
			i = j
		case c == '\t':
			i++
			if !styled {
				dst = append(dst, '\t')
				continue
			}
			if seg < len(dst) {
				// Count whole segments, not runes, so that grapheme
				// clusters are measured the way ansi.StringWidth will
				// measure the result; SGRs in the segment count 0.
				col += ansi.StringWidth(unsafe.String(&dst[seg], len(dst)-seg))
			}
			n := tabStop - col%tabStop
			dst = append(dst, spaces[:n]...)
			col += n
			seg = len(dst)
		case c == ansi.ESC:
			n, kind := escapeAt(line[i:])
			switch kind {
			case loneEscape:
				dst = appendPicture(dst, c)
			case sgrSequence:
				if styled {
					dst, dirty = appendSGR(dst, line[i+2:i+n-1], dirty)
				}
			}
			i += n
		case c < 0x20 || c == ansi.DEL:
			dst = appendPicture(dst, c)
			i++
		default:
			// 0x80 and above: never handed to DecodeSequence, which
			// would read raw 0x9B/0x9D/0x90 as CSI/OSC/DCS.
			r, size := utf8.DecodeRune(line[i:])
			switch {
			case r == utf8.RuneError && size == 1, r >= 0x80 && r <= 0x9f:
				dst = append(dst, replacement...)
			case isBidiControl(r):
				// dropped
			default:
				dst = append(dst, line[i:i+size]...)
			}
			i += size
		}
	}
	if dirty {
		dst = append(dst, ansi.ResetStyle...)
	}
	return dst
}

// appendPicture appends the Unicode control picture of the C0 control or DEL
// c: U+2400+c for 0x00-0x1F, U+2421 for 0x7F. All are three bytes in UTF-8.
func appendPicture(dst []byte, c byte) []byte {
	r := 0x2400 + rune(c)
	if c == ansi.DEL {
		r = 0x2421
	}
	return utf8.AppendRune(dst, r)
}

// isBidiControl reports whether r is one of the bidirectional formatting
// characters that can reorder the rest of a terminal line (Unicode UAX #9,
// "Explicit Directional Embeddings/Overrides/Isolates" and the marks).
func isBidiControl(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}
