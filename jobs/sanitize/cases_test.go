package sanitize

import (
	"strings"
	"testing"
)

// item23 is one labelled item of ../shared/cases/proc/23-hostile-escapes.sh:
// the script prints "pcase-23 [label] >>payload<<" and the sanitised line
// must read "pcase-23 [label] >>want<<" in both Plain and Styled.
type item23 struct {
	label, payload, want string
}

const (
	esc    = "\x1b"
	bel    = "\a"
	st     = esc + "\\"
	pwned  = "cHduZWQ=" // base64 of "pwned", as the script computes it
	mark23 = "pcase-23"
)

var case23 = []item23{
	{"OSC52 clipboard (BEL)", esc + "]52;c;" + pwned + bel, ""},
	{"OSC52 clipboard (ST)", esc + "]52;p;" + pwned + st, ""},
	{"OSC0 title", esc + "]0;pcase-23 HACKED TITLE" + bel, ""},
	{"OSC2 title (ST)", esc + "]2;pcase-23 HACKED TITLE 2" + st, ""},
	{"OSC8 hyperlink", esc + "]8;;https://evil.example/" + st + "click me" + esc + "]8;;" + st, "click me"},
	{"OSC7 cwd", esc + "]7;file://evil.example/etc" + bel, ""},
	{"OSC1337 iTerm file", esc + "]1337;File=name=cHdu;inline=1:cHduZWQ=" + bel, ""},
	{"OSC11 bg colour set", esc + "]11;#ff0000" + bel, ""},
	{"OSC4 palette", esc + "]4;1;rgb:00/ff/00" + bel, ""},
	{"alt screen 1049h", esc + "[?1049h", ""},
	{"alt screen 47h", esc + "[?47h", ""},
	{"clear screen", esc + "[2J" + esc + "[H", ""},
	{"clear scrollback", esc + "[3J", ""},
	{"mouse 1000h 1002h 1003h 1006h 1015h", esc + "[?1000h" + esc + "[?1002h" + esc + "[?1003h" + esc + "[?1006h" + esc + "[?1015h", ""},
	{"mouse off 1000l (would break the console's own mouse)", esc + "[?1000l" + esc + "[?1006l", ""},
	{"bracketed paste on/off", esc + "[?2004h" + esc + "[?2004l", ""},
	{"focus events 1004h", esc + "[?1004h", ""},
	{"cursor hide 25l", esc + "[?25l", ""},
	{"autowrap off 7l", esc + "[?7l", ""},
	{"scroll region", esc + "[5;10r", ""},
	{"DSR cursor report 6n", esc + "[6n", ""},
	{"DA1 / DA2 / XTVERSION", esc + "[c" + esc + "[>c" + esc + "[>q", ""},
	{"OSC11 bg colour query", esc + "]11;?" + bel, ""},
	{"title report 21t / size 14t", esc + "[21t" + esc + "[14t", ""},
	{"DECRQSS", esc + "P$qm" + st, ""},
	{"SO shift-out", "\x0ethis should not be line-drawing\x0f", "␎this should not be line-drawing␏"},
	{"DEC graphics charset", esc + "(0lqqk" + esc + "(B", "lqqk"},
	{"C1 CSI as UTF-8 U+009B", "\xc2\x9b31mred-via-C1", "\uFFFD31mred-via-C1"},
	{"raw 8-bit CSI 0x9b", "\x9b32mgreen-via-raw-C1", "\uFFFD32mgreen-via-raw-C1"},
	{"bidi RLO U+202E", "\u202etxet desrever\u202c normal", "txet desrever normal"},
	{"bidi isolate U+2066", "\u2066isolated\u2069", "isolated"},
	{"bell x20", strings.Repeat(bel, 20), strings.Repeat("␇", 20)},
	{"backspace overwrite", "safe\b\b\b\bEVIL", "safe␈␈␈␈EVIL"},
	{"RIS full reset", esc + "c", ""},
	{"DECSTR soft reset", esc + "[!p", ""},
	{"window ops (resize/move/iconify)", esc + "[8;5;20t" + esc + "[3;0;0t" + esc + "[2t", ""},
	{"sixel/DCS blob", esc + "Pq#0;2;0;0;0~~~~" + st, ""},
	// The two stderr lines use the same "[label] >>…<<" shape.
	{"stderr OSC52+title", esc + "]52;c;" + pwned + bel + esc + "]0;pcase-23 STDERR TITLE" + bel, ""},
	{"stderr alt screen", esc + "[?1049h" + esc + "[2J", ""},
}

func (it item23) line() string {
	return mark23 + " [" + it.label + "] >>" + it.payload + "<<"
}

func (it item23) wantLine() string {
	return mark23 + " [" + it.label + "] >>" + it.want + "<<"
}

func TestCase23HostileEscapes(t *testing.T) {
	t.Parallel()
	for _, it := range case23 {
		t.Run(it.label, func(t *testing.T) {
			t.Parallel()
			in := []byte(it.line())
			want := it.wantLine()
			if got := Plain(in); got != want {
				t.Errorf("Plain(%q)\n got %q\nwant %q", in, got, want)
			}
			if got := Styled(in); got != want {
				t.Errorf("Styled(%q)\n got %q\nwant %q", in, got, want)
			}
			checkAll(t, in)
		})
	}
}

// case24 is every line of ../shared/cases/proc/24-bad-bytes.sh (stdout and
// stderr) with the Plain result; Styled is the same (no SGR, no TAB).
var case24 = []struct{ in, want string }{
	{"invalid: \xff\xfe end", "invalid: \uFFFD\uFFFD end"},
	{"overlong slash: \xc0\xaf end", "overlong slash: \uFFFD\uFFFD end"},
	{"lone continuation: \x80\x81 end", "lone continuation: \uFFFD\uFFFD end"},
	{"truncated 3-byte: \xe2\x82 end", "truncated 3-byte: \uFFFD\uFFFD end"},
	{"surrogate half: \xed\xa0\x80 end", "surrogate half: \uFFFD\uFFFD\uFFFD end"},
	{"above U+10FFFF: \xf4\x90\x80\x80 end", "above U+10FFFF: \uFFFD\uFFFD\uFFFD\uFFFD end"},
	{"NUL: before\x00after", "NUL: before␀after"},
	{"DEL: a\x7fb", "DEL: a␡b"},
	{"lone ESC at end of line: \x1b", "lone ESC at end of line: ␛"},
	{"C1 bytes: \x85\x8d\x90\x9d\x9e\x9f end", "C1 bytes: " + strings.Repeat("\uFFFD", 6) + " end"},
	{"latin-1 text: caf\xe9 na\xefve", "latin-1 text: caf\uFFFD na\uFFFDve"},
	{"valid for comparison: café naïve € 😀 日本語", "valid for comparison: café naïve € 😀 日本語"},
	{strings.Repeat("\x00", 1<<20), strings.Repeat("␀", 1<<20)},
	{"invalid on stderr: \xff\x00\xfe", "invalid on stderr: \uFFFD␀\uFFFD"},
	{"pcase-24 DONE", "pcase-24 DONE"},
}

func TestCase24BadBytes(t *testing.T) {
	t.Parallel()
	for _, tc := range case24 {
		name := tc.in
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in := []byte(tc.in)
			if got := Plain(in); got != tc.want {
				t.Errorf("Plain(%.80q)\n got %.80q\nwant %.80q", in, got, tc.want)
			}
			if got := Styled(in); got != tc.want {
				t.Errorf("Styled(%.80q)\n got %.80q\nwant %.80q", in, got, tc.want)
			}
			checkAll(t, in)
		})
	}
}

// case21 holds the lines ../shared/cases/proc/21-progress-cr.sh leaves after
// the ring's carriage-return rewriting, plus the raw forms in case a line
// reaches the sanitiser unrewritten: a CR then shows as "␍", never acts.
var case21 = []struct{ name, in, want string }{
	{"final bar", "download [##########] 100%", "download [##########] 100%"},
	{"first bar state", "download [          ]   0%", "download [          ]   0%"},
	{"spinner state, erase-line kept by the ring", esc + "[2K⠋ building… 1", "⠋ building… 1"},
	{"spinner final", esc + "[2Kbuilt", "built"},
	{"crlf line", "crlf line 1", "crlf line 1"},
	{"done", "pcase-21 DONE", "pcase-21 DONE"},
	{"raw bar states", "\rdownload [          ]   0%\rdownload [#         ]  10%", "␍download [          ]   0%␍download [#         ]  10%"},
	{"raw spinner", "\r" + esc + "[2K⠙ building… 2\r" + esc + "[2Kbuilt", "␍⠙ building… 2␍built"},
	{"raw crlf", "crlf line 2\r", "crlf line 2␍"},
}

func TestCase21ProgressCR(t *testing.T) {
	t.Parallel()
	for _, tc := range case21 {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := []byte(tc.in)
			if got := Plain(in); got != tc.want {
				t.Errorf("Plain(%q) = %q, want %q", in, got, tc.want)
			}
			if got := Styled(in); got != tc.want {
				t.Errorf("Styled(%q) = %q, want %q", in, got, tc.want)
			}
			checkAll(t, in)
		})
	}
}
