package model

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// MaxHeaderCommand is how many characters of the command a header shows
// before it is cut with "…".
const MaxHeaderCommand = 120

// Status is the state part of a report header: "running", "stopping",
// "exited 0", "killed by SIGTERM", "exited 0, 2 still running",
// "failed: <reason>".
func (s Snapshot) Status() string {
	var b strings.Builder
	switch {
	case s.State == StateFailed:
		b.WriteString("failed")
		if s.Err != "" {
			b.WriteString(": ")
			b.WriteString(s.Err)
		}
		return b.String()
	case s.Exit != nil:
		b.WriteString(s.Exit.String())
	default:
		b.WriteString(s.State.String())
	}
	if s.Exit != nil && s.Remaining > 0 {
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(s.Remaining))
		b.WriteString(" still running")
	}
	return b.String()
}

// Header is the first line of a job's report (ARCHITECTURE.md §1):
// "job 0 running 0:02 npm run dev", "job 3 (web) exited 1 0:14 make test".
// The command is shown on one line, control characters replaced, and cut
// to MaxHeaderCommand characters.
func (s Snapshot) Header(now time.Time) string {
	return s.HeaderWith(now, "", MaxHeaderCommand)
}

// NoCommand, as HeaderWith's cmdMax, leaves the command out.
const NoCommand = -1

// HeaderWith is the header every edge shows, with what an edge adds:
// tag after the label ("job 0 (web) :5173 running 1:15 npm run dev"; ""
// for none) and the command cut to cmdMax characters (0: whole;
// NoCommand: left out, "job 3 (web) exited 1 0:14").
func (s Snapshot) HeaderWith(now time.Time, tag string, cmdMax int) string {
	var b strings.Builder
	b.WriteString("job ")
	b.WriteString(s.Label())
	if tag != "" {
		b.WriteByte(' ')
		b.WriteString(tag)
	}
	b.WriteByte(' ')
	b.WriteString(s.Status())
	b.WriteByte(' ')
	b.WriteString(FormatElapsed(s.Elapsed(now)))
	if cmdMax != NoCommand {
		b.WriteByte(' ')
		b.WriteString(OneLine(s.Command, cmdMax))
	}
	return b.String()
}

// OneLine returns s on one line for headers and lists: line breaks become
// "⏎", the other C0 controls and DEL their Unicode control pictures (ESC
// is "␛", BEL "␇": an escape sequence in a path or a name shows as what it
// is, and never acts), tabs, C1 controls and bidi formatting characters
// become spaces, invalid UTF-8 becomes U+FFFD, and the result is cut to
// max characters with "…" (max ≤ 0 means no cut).
func OneLine(s string, max int) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if max > 0 && n == max {
			b.WriteString("…")
			break
		}
		switch {
		case r == '\n':
			b.WriteString("⏎")
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r < 0x20 && r != '\t':
			b.WriteRune(0x2400 + r) // U+2400 Control Pictures: ␀ … ␟
		case r == 0x7f:
			b.WriteRune('␡')
		case r == '\t' || unicode.IsControl(r) || unicode.In(r, unicode.Bidi_Control):
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
		n++
	}
	return strings.TrimSpace(b.String())
}
