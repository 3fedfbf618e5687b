package sanitize

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// rows of input, Plain result and Styled result.
var rows = []struct {
	name, in, plain, styled string
}{
	// SGR: kept in Styled, normalised, closed at the end of the line.
	{"sgr closed by the job", esc + "[31mred" + esc + "[0m", "red", esc + "[31mred" + esc + "[m"},
	{"sgr left open is closed", esc + "[1;31mbold red", "bold red", esc + "[1;31mbold red" + esc + "[m"},
	{"sgr runs", "ok " + esc + "[32mPASS" + esc + "[m x " + esc + "[33mWARN", "ok PASS x WARN",
		"ok " + esc + "[32mPASS" + esc + "[m x " + esc + "[33mWARN" + esc + "[m"},
	{"sgr empty is reset", esc + "[mplain", "plain", esc + "[mplain"},
	{"sgr missing param is 0", esc + "[;1mx", "x", esc + "[0;1mx" + esc + "[m"},
	{"sgr reset then colour stays open", esc + "[0;31mx", "x", esc + "[0;31mx" + esc + "[m"},
	{"sgr colour then reset is closed", esc + "[31;0mx", "x", esc + "[31;0mx"},
	{"256 colour", esc + "[38;5;208morange" + esc + "[m", "orange", esc + "[38;5;208morange" + esc + "[m"},
	{"256 colour bg", esc + "[48;5;22mbg", "bg", esc + "[48;5;22mbg" + esc + "[m"},
	{"256 colour colon", esc + "[38:5:208morange", "orange", esc + "[38;5;208morange" + esc + "[m"},
	{"256 colour index 0 is not a reset", esc + "[38;5;0mblack", "black", esc + "[38;5;0mblack" + esc + "[m"},
	{"truecolor", esc + "[38;2;255;128;0mtc", "tc", esc + "[38;2;255;128;0mtc" + esc + "[m"},
	{"truecolor bg colon with colour space", esc + "[48:2::10:20:30mtc", "tc", esc + "[48;2;10;20;30mtc" + esc + "[m"},
	{"truecolor colon without colour space", esc + "[38:2:10:20:30mtc", "tc", esc + "[38;2;10;20;30mtc" + esc + "[m"},
	{"truecolor then more attrs", esc + "[1;38;2;1;2;3;4mx", "x", esc + "[1;38;2;1;2;3;4mx" + esc + "[m"},
	{"colour out of range dropped whole", esc + "[38;5;300mx", "x", "x"},
	{"rgb out of range dropped, rest kept", esc + "[38;2;1;2;999;1mx", "x", esc + "[1mx" + esc + "[m"},
	{"colour cut short", esc + "[38;2;1mx", "x", "x"},
	{"unknown colour type", esc + "[38;7;1mx", "x", esc + "[1mx" + esc + "[m"},
	{"conceal dropped", esc + "[8msecret" + esc + "[28m", "secret", "secret"},
	{"conceal dropped, reset kept", esc + "[0;8mx", "x", esc + "[mx"},
	{"underline styles", esc + "[4:3mcurly" + esc + "[4:0m", "curly", esc + "[4mcurly" + esc + "[24m" + esc + "[m"},
	{"underline colour dropped", esc + "[58;5;1;31mx" + esc + "[58:2::1:2:3m", "x", esc + "[31mx" + esc + "[m"},
	{"fonts and oddities dropped", esc + "[10;11;20;26;51;73mx", "x", "x"},
	{"every kept attribute", esc + "[1;2;3;4;5;6;7;9;21;22;23;24;25;27;29;30;37;39;40;47;49;53;55;90;97;100;107mx", "x",
		esc + "[1;2;3;4;5;6;7;9;21;22;23;24;25;27;29;30;37;39;40;47;49;53;55;90;97;100;107mx" + esc + "[m"},
	{"huge param", esc + "[99999999999999999999mx", "x", "x"},
	{"many params", esc + "[" + strings.Repeat("1;", 300) + "31mx", "x",
		esc + "[" + strings.Repeat("1;", 300) + "31mx" + esc + "[m"},
	{"private sgr dropped", esc + "[?1mx", "x", "x"},
	{"sgr with intermediate dropped", esc + "[31 mx", "x", "x"},
	{"sgr cut off at end", "x" + esc + "[31", "x", "x"},
	{"sgr broken by control", esc + "[31;\amx", "␇mx", "␇mx"},

	// Tabs: kept in Plain, expanded to 8-column stops in Styled.
	{"tab", "a\tb", "a\tb", "a       b"},
	{"leading tab", "\tx", "\tx", "        x"},
	{"tab at stop", "12345678\tx", "12345678\tx", "12345678        x"},
	{"tabs", "a\tbc\tdef\tg", "a\tbc\tdef\tg", "a       bc      def     g"},
	{"tab after wide", "日本\tx", "日本\tx", "日本    x"},
	{"tab after emoji", "😀\tx", "😀\tx", "😀      x"},
	{"tab after sgr", esc + "[31mab" + esc + "[m\tc", "ab\tc", esc + "[31mab" + esc + "[m      c"},
	{"tab after control picture", "a\x00\tb", "a␀\tb", "a␀      b"},
	{"tab after dropped sequence", "ab" + esc + "]0;title" + bel + "\tc", "ab\tc", "ab      c"},

	// String sequences and their ends.
	{"osc title with 9c byte in UTF-8", esc + "]0;本 title" + bel + "visible", "visible", "visible"},
	{"osc with raw 8-bit ST inside", esc + "]0;a\x9cb" + bel + "c", "c", "c"},
	{"osc unterminated", "before" + esc + "]52;c;cHdu", "before", "before"},
	{"osc unterminated with 9c", "before" + esc + "]0;本本本", "before", "before"},
	{"dcs unterminated", "x" + esc + "Pq####", "x", "x"},
	{"osc cancelled by esc", esc + "]0;title" + esc + "[31mred", "red", esc + "[31mred" + esc + "[m"},
	{"osc cancelled by CAN", esc + "]0;t\x18after", "␘after", "␘after"},
	{"osc cancelled by an ESC that starts a sequence", esc + "]0;t" + esc + "x", "", ""},
	{"apc kitty graphics", esc + "_Gf=100;AAAA" + st + "img", "img", "img"},
	{"sos and pm", esc + "Xsos" + st + "a" + esc + "^pm" + st + "b", "ab", "ab"},
	{"raw 8-bit OSC", "\x9d0;title\ax", "\uFFFD0;title␇x", "\uFFFD0;title␇x"},
	{"raw 8-bit DCS and APC", "\x90q\x9fz", "\uFFFDq\uFFFDz", "\uFFFDq\uFFFDz"},
	{"xtversion reply", esc + "P>|tmux 3.3a" + st + "z", "z", "z"},

	// Lone and odd ESCs.
	{"lone esc", esc, "␛", "␛"},
	{"esc esc", esc + esc + "[31mx", "␛x", "␛" + esc + "[31mx" + esc + "[m"},
	{"esc del", esc + "\x7f", "␛␡", "␛␡"},
	{"esc utf8", esc + "é", "␛é", "␛é"},
	{"esc intermediate cut off", "x" + esc + "(", "x", "x"},
	{"lone ST", "a" + st + "b", "ab", "ab"},
	{"csi with control inside", esc + "[3\b2J", "␈2J", "␈2J"},
	{"cursor movement", "a" + esc + "[10Ab" + esc + "[5;5Hc" + esc + "7d" + esc + "8", "abcd", "abcd"},

	// Controls, C1 and bidi.
	{"all C0", "\x01\x02\x03\x04\x05\x06\x07\x08\x0a\x0b\x0c\x0d\x1f", "␁␂␃␄␅␆␇␈␊␋␌␍␟", "␁␂␃␄␅␆␇␈␊␋␌␍␟"},
	{"encoded C1 NEL", "a\u0085b", "a\uFFFDb", "a\uFFFDb"},
	{"encoded C1 range ends", "\u0080\u009f\u00a0", "\uFFFD\uFFFD\u00a0", "\uFFFD\uFFFD\u00a0"},
	{"bidi marks", "a\u200eb\u200fc\u061cd\u202ae\u202bf\u202dg\u2067h\u2068i", "abcdefghi", "abcdefghi"},
	{"replacement char kept", "\uFFFD", "\uFFFD", "\uFFFD"},
	{"combining and zwj kept", "e\u0301 👩\u200d💻", "e\u0301 👩\u200d💻", "e\u0301 👩\u200d💻"},
	{"empty", "", "", ""},
}

func TestRows(t *testing.T) {
	t.Parallel()
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := []byte(tc.in)
			if got := Plain(in); got != tc.plain {
				t.Errorf("Plain(%q)\n got %q\nwant %q", in, got, tc.plain)
			}
			if got := Styled(in); got != tc.styled {
				t.Errorf("Styled(%q)\n got %q\nwant %q", in, got, tc.styled)
			}
			checkAll(t, in)
		})
	}
}

// TestStyledTabWidth checks that tab expansion agrees with ansi.StringWidth,
// the width the UI uses: every tab ends on a multiple of 8 columns.
func TestStyledTabWidth(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"a\tb", 9},
		{"\t", 8},
		{"日本語\t|", 9},
		{"😀😀😀😀\t|", 17},
		{esc + "[38;5;1mcolour" + esc + "[m\t|", 9},
		{"\x00\x01\t|", 9},
		{"\xff\xfe\t|", 9},
	} {
		if got := ansi.StringWidth(Styled([]byte(tc.in))); got != tc.want {
			t.Errorf("StringWidth(Styled(%q)) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// TestFastPathReturnsCopy checks that a printable ASCII line comes back
// unchanged and that the result does not alias the caller's buffer.
func TestFastPathReturnsCopy(t *testing.T) {
	t.Parallel()
	in := []byte("plain ASCII line ~ 0123456789")
	p, s := Plain(in), Styled(in)
	in[0] = 'X'
	if p != "plain ASCII line ~ 0123456789" || s != p {
		t.Fatalf("Plain = %q, Styled = %q after changing the input; want the original text", p, s)
	}
}

// TestAppendDoesNotAllocate checks that the Append variants write into a
// buffer with room without allocating, on plain, coloured and hostile lines.
func TestAppendDoesNotAllocate(t *testing.T) {
	lines := [][]byte{[]byte(benchASCII), []byte(benchSGR), []byte(benchHostile)}
	buf := make([]byte, 0, 4096)
	for _, line := range lines {
		if n := testing.AllocsPerRun(50, func() { buf = AppendPlain(buf[:0], line) }); n != 0 {
			t.Errorf("AppendPlain(%.30q…) allocates %.1f times per call, want 0", line, n)
		}
		if n := testing.AllocsPerRun(50, func() { buf = AppendStyled(buf[:0], line) }); n != 0 {
			t.Errorf("AppendStyled(%.30q…) allocates %.1f times per call, want 0", line, n)
		}
	}
}

// TestPrintableASCII compares the word-at-a-time test with a byte loop for
// every byte value at every position of a word and of the tail, next to
// neighbours at both edges of the printable range.
func TestPrintableASCII(t *testing.T) {
	t.Parallel()
	slow := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 || c > 0x7e {
				return false
			}
		}
		return true
	}
	for _, fill := range []byte{0x20, 0x7e, 'a'} {
		for n := 1; n <= 19; n++ {
			for pos := range n {
				for c := range 256 {
					b := bytes.Repeat([]byte{fill}, n)
					b[pos] = byte(c)
					if got, want := printableASCII(b), slow(b); got != want {
						t.Fatalf("printableASCII(%q) = %v, want %v", b, got, want)
					}
				}
			}
		}
	}
}
