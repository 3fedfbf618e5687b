package serve

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Error log limits. The first error of a kind is written at once; more of
// the same kind are counted and summed up in one line no sooner than
// logQuiet after the last line of that kind, the quiet time doubling
// each time up to logQuietMax. So a condition that repeats forever costs
// a line at 1, 2, 4 … minutes, then one an hour.
const (
	logQuiet    = time.Minute
	logQuietMax = time.Hour
	logKinds    = 64 // kinds remembered; the least recent is forgotten
)

// errorLog is an io.Writer for the HTTP server's error messages (the
// net/http ErrorLog, the SDK's logger, jobdeck's own accept loop): each
// Write is one message. It writes to out once per kind of message,
// rate-limited as above, with the token, if it ever shows up in a
// message, replaced by "[token]".
type errorLog struct {
	out   io.Writer
	token string
	now   func() time.Time

	mu    sync.Mutex
	kinds map[string]*logKind
}

// logKind is what errorLog remembers of one kind of message.
type logKind struct {
	last    time.Time     // when a line of this kind was last written
	quiet   time.Duration // the wait before the next line
	dropped int           // messages since that line
	seen    time.Time     // the latest message of this kind
}

func newErrorLog(out io.Writer, token string) *errorLog {
	if out == nil {
		out = io.Discard
	}
	return &errorLog{out: out, token: token, now: time.Now, kinds: map[string]*logKind{}}
}

// variable matches the parts of a message that differ between messages
// of one kind: numbers (ports, addresses, counts, times) and hex ids.
var variable = regexp.MustCompile(`[0-9a-fA-F]*[0-9][0-9a-fA-F]*`)

// kindOf is a message with its variable parts blanked out.
func kindOf(msg string) string {
	return variable.ReplaceAllString(msg, "#")
}

// Write logs one message p (a trailing newline is optional).
func (l *errorLog) Write(p []byte) (int, error) {
	msg := strings.TrimRight(string(p), "\n")
	if l.token != "" {
		msg = strings.ReplaceAll(msg, l.token, "[token]")
	}
	now := l.now()
	kind := kindOf(msg)
	l.mu.Lock()
	k := l.kinds[kind]
	var line string
	switch {
	case k == nil:
		l.forgetOldest()
		l.kinds[kind] = &logKind{last: now, quiet: logQuiet, seen: now}
		line = "jobdeck: " + msg + "\n"
	case now.Sub(k.last) >= k.quiet:
		line = "jobdeck: " + msg + "\n"
		if k.dropped > 0 {
			line = fmt.Sprintf("jobdeck: %s (and %d more like it since %s)\n", msg, k.dropped, k.last.Format("15:04:05"))
		}
		k.last, k.dropped, k.seen = now, 0, now
		k.quiet = min(2*k.quiet, logQuietMax)
	default:
		k.dropped++
		k.seen = now
	}
	l.mu.Unlock()
	if line != "" {
		io.WriteString(l.out, line)
	}
	return len(p), nil
}

// forgetOldest makes room for a new kind. l.mu is held.
func (l *errorLog) forgetOldest() {
	if len(l.kinds) < logKinds {
		return
	}
	var oldest string
	for kind, k := range l.kinds {
		if oldest == "" || k.seen.Before(l.kinds[oldest].seen) {
			oldest = kind
		}
	}
	delete(l.kinds, oldest)
}
