package sanitize

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// plainViolation returns why s breaks the Plain contract, or "".
func plainViolation(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return fmt.Sprintf("control byte %#x at %d", c, i)
		}
	}
	return runeViolation(s)
}

// runeViolation reports C1 controls and bidi controls in valid UTF-8 s.
func runeViolation(s string) string {
	for i, r := range s {
		if r >= 0x80 && r <= 0x9f {
			return fmt.Sprintf("C1 control %U at %d", r, i)
		}
		if isBidiControl(r) {
			return fmt.Sprintf("bidi control %U at %d", r, i)
		}
	}
	return ""
}

// styledViolation returns why s breaks the Styled contract, or "": only SGR
// sequences, no TAB or other control, and no attribute left set at the end.
func styledViolation(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	lastSGR := "" // parameters of the last SGR; "" also means none
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 0x1b {
			j := i + 1
			if j >= len(s) || s[j] != '[' {
				return fmt.Sprintf("ESC not starting a CSI at %d", i)
			}
			j++
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
				j++
			}
			if j >= len(s) || s[j] != 'm' {
				return fmt.Sprintf("CSI other than a normalised SGR at %d: %q", i, s[i:min(j+1, len(s))])
			}
			lastSGR = s[i+2 : j]
			i = j
			continue
		}
		if c < 0x20 || c == 0x7f {
			return fmt.Sprintf("control byte %#x at %d", c, i)
		}
	}
	if !leavesReset(lastSGR) {
		return fmt.Sprintf("last SGR %q leaves an attribute set", lastSGR)
	}
	return runeViolation(s)
}

// leavesReset reports whether the SGR with parameters params ends in the
// default state: its last attribute is a reset (skipping colour arguments).
func leavesReset(params string) bool {
	if params == "" {
		return true
	}
	f := strings.Split(params, ";")
	last := ""
	for i := 0; i < len(f); i++ {
		last = f[i]
		if f[i] == "38" || f[i] == "48" {
			if i+1 < len(f) && f[i+1] == "5" {
				i += 2
			} else {
				i += 4
			}
		}
	}
	return last == "0" || last == ""
}

// stripSGR removes the normalised SGR sequences from a Styled result.
func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			i = strings.IndexByte(s[i:], 'm') + i
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// expandTabs expands TABs in a Plain result the way Styled promises: to the
// next multiple of 8 columns, columns counted by ansi.StringWidth.
func expandTabs(s string) string {
	var b strings.Builder
	col := 0
	for {
		seg, rest, found := strings.Cut(s, "\t")
		b.WriteString(seg)
		if !found {
			return b.String()
		}
		col += ansi.StringWidth(seg)
		n := 8 - col%8
		b.WriteString(strings.Repeat(" ", n))
		col += n
		s = rest
	}
}

// checkAll asserts every property that holds for any input.
func checkAll(t *testing.T, in []byte) {
	t.Helper()
	p, s := Plain(in), Styled(in)
	if v := plainViolation(p); v != "" {
		t.Fatalf("Plain(%q) = %q: %s", in, p, v)
	}
	if v := styledViolation(s); v != "" {
		t.Fatalf("Styled(%q) = %q: %s", in, s, v)
	}
	if got, want := stripSGR(s), expandTabs(p); got != want {
		t.Fatalf("Styled(%q) without SGR = %q, want Plain with tabs expanded %q", in, got, want)
	}
	if again := Plain([]byte(p)); again != p {
		t.Fatalf("Plain not idempotent on %q: %q then %q", in, p, again)
	}
	if again := Styled([]byte(s)); again != s {
		t.Fatalf("Styled not idempotent on %q: %q then %q", in, s, again)
	}
	const prefix = "pre\t"
	if got := string(AppendPlain([]byte(prefix), in)); got != prefix+p {
		t.Fatalf("AppendPlain(%q, %q) = %q, want %q", prefix, in, got, prefix+p)
	}
	if got := string(AppendStyled([]byte(prefix), in)); got != prefix+s {
		t.Fatalf("AppendStyled(%q, %q) = %q, want %q", prefix, in, got, prefix+s)
	}
}

// TestViolationCheckersCatchRawInput is the negative control for the
// invariant checkers used by the table and fuzz tests: raw hostile bytes
// must be reported.
func TestViolationCheckersCatchRawInput(t *testing.T) {
	t.Parallel()
	bad := []string{
		"\x1b[31mred", "a\x00b", "a\x7fb", "\xff", "\u009b31m", "\u202eabc",
		"\x1b]52;c;cHduZWQ=\a", "\x1b[?1049h",
	}
	for _, s := range bad {
		if plainViolation(s) == "" {
			t.Errorf("plainViolation(%q) found nothing", s)
		}
	}
	for _, s := range append(bad[1:], "\x1b[31mred", "a\tb", "\x1b[2J") {
		if styledViolation(s) == "" {
			t.Errorf("styledViolation(%q) found nothing", s)
		}
	}
	for _, s := range []string{"ok", "\x1b[31mred\x1b[m", "\x1b[38;5;0mx\x1b[m", "a\tb"} {
		if s != "a\tb" && styledViolation(s) != "" {
			t.Errorf("styledViolation(%q) = %q, want none", s, styledViolation(s))
		}
		if plainViolation(stripSGR(s)) != "" {
			t.Errorf("plainViolation(%q) = %q, want none", stripSGR(s), plainViolation(stripSGR(s)))
		}
	}
	if leavesReset("38;5;0") {
		t.Error(`leavesReset("38;5;0") = true, want false (0 is the colour index)`)
	}
}
