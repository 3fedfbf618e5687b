// Package sanitize turns one raw line of job output into text that is safe
// to show: Plain for the coding agent (MCP text and JSON), Styled for the
// terminal UI. A job can print anything; nothing it prints may act on the
// viewer's terminal, the agent's transport or the console's own state.
//
// Input is one line as the ring stores it: raw bytes, no newline, carriage
// returns already applied. Escape sequences are found with
// github.com/charmbracelet/x/ansi (DecodeSequence), starting only at a 7-bit
// ESC; the package never writes to a terminal and never fails: every input,
// however malformed, gives a result.
//
// What both functions guarantee:
//
//   - The result is valid UTF-8.
//   - Printable text is kept byte for byte, including text between and
//     after escape sequences: "\x1b[31mred\x1b[0m" gives "red", an OSC 8
//     hyperlink gives only its visible text.
//   - Every escape sequence except SGR (ESC [ params m, Styled only) is
//     dropped whole, payload included: CSI (cursor movement, erase, scroll
//     regions, modes such as ?1049h and mouse modes, queries such as DSR 6n,
//     DA, XTVERSION, window ops), OSC of every kind (52 clipboard, 0/1/2
//     titles, 8 hyperlinks, 7, 1337, 4, 10/11), DCS (DECRQSS, sixel), APC,
//     SOS, PM, and two-byte ESC sequences (ESC ( 0, ESC c RIS, ESC 7 ...).
//     A sequence cut off by the end of the line drops the rest of the line.
//     A string sequence (OSC, DCS, APC, SOS, PM) ends at BEL (OSC only),
//     ESC \, or is cancelled by CAN, SUB or any other ESC; the 8-bit ST byte
//     0x9C does not end it, because in UTF-8 text that byte is part of
//     characters such as "本".
//   - C1 controls are never interpreted. Raw bytes 0x80-0x9F are invalid
//     UTF-8 and, like every byte that does not decode, become U+FFFD (one
//     per byte, as Go's utf8.DecodeRune reports them); the code points
//     U+0080-U+009F encoded in UTF-8 also become U+FFFD.
//   - C0 controls and DEL are shown as their Unicode control pictures:
//     U+2400+c for 0x00-0x1F (NUL "␀", BEL "␇", BS "␈", CR "␍", SO "␎",
//     ESC "␛"), U+2421 "␡" for DEL. TAB is the exception (see below). An ESC
//     that does not start a sequence (last byte of the line, or followed by
//     a byte no sequence can continue with) is shown as "␛"; so
//     "safe\b\b\b\bEVIL" reads "safe␈␈␈␈EVIL".
//   - Bidi controls are removed: U+202A-U+202E, U+2066-U+2069, U+200E,
//     U+200F, U+061C. The text they enclose is kept in logical order.
//
// Plain keeps TAB as TAB and contains no ESC at all: no byte below 0x20 other
// than TAB, no 0x7F, no rune in U+0080-U+009F.
//
// Styled expands TAB to spaces up to the next multiple of 8 columns, counting
// columns with ansi.StringWidth, and keeps SGR in a normalised form: the
// parameters are re-emitted separated by ";" with extended colours written as
// 38;5;n / 48;5;n (256 colours) and 38;2;r;g;b / 48;2;r;g;b (truecolor),
// whichever of the ";" or ":" forms came in; a lone reset is written
// "\x1b[m". Attributes kept: reset 0, bold 1, faint 2, italic 3, underline 4
// (4:0 becomes 24, other 4:n become 4), blink 5/6, reverse 7, strike 9,
// double underline 21, their resets 22-25, 27, 29, colours 30-37, 38, 39,
// 40-47, 48, 49, 90-97, 100-107, overline 53/55. Everything else (conceal 8
// and 28, so the developer never sees less than the agent; fonts 10-20;
// underline colour 58/59; colour values above 255) is dropped; an SGR with
// nothing left is dropped whole. When the kept SGRs leave any attribute set
// at the end of the line, Styled appends "\x1b[m" so colour never leaks into
// the next line. Styled contains no other control byte: its only ESCs start
// SGR sequences.
//
// Printable ASCII lines (bytes 0x20-0x7E only), the common case, are
// returned as a copy without further work. AppendPlain and AppendStyled
// write into a caller's buffer and allocate only when it must grow. The
// package holds no state: every function is safe for concurrent use.
package sanitize
