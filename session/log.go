package session

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// logger writes the session's own messages (to its log file: the session
// process's stderr), one line each with the time. once says a thing once
// per key for the session's life, so that a client retrying a refused
// connection, or a failing accept, cannot fill the log. printf is for the
// routine lines (started, attached, left, ended); warnf and once mark the
// log as worth keeping (kept): a session that ends cleanly with an
// unmarked log removes it (Main).
type logger struct {
	mu      sync.Mutex
	w       io.Writer
	said    map[string]bool
	notable bool
}

func newLogger(w io.Writer) *logger { return &logger{w: w, said: map[string]bool{}} }

// maxOnceKeys bounds how many distinct once-keys are remembered; past it,
// once-messages are dropped (they were said often enough).
const maxOnceKeys = 1024

func (l *logger) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "%s jobdeck session: %s\n", time.Now().Format("2006-01-02 15:04:05.000"), fmt.Sprintf(format, args...))
}

// warnf writes a line worth keeping the log for.
func (l *logger) warnf(format string, args ...any) {
	l.mu.Lock()
	l.notable = true
	l.mu.Unlock()
	l.printf(format, args...)
}

// kept reports whether a line worth keeping the log for was written.
func (l *logger) kept() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.notable
}

func (l *logger) once(key, format string, args ...any) {
	l.mu.Lock()
	if l.said[key] || len(l.said) >= maxOnceKeys {
		l.mu.Unlock()
		return
	}
	l.said[key] = true
	l.notable = true
	l.mu.Unlock()
	l.printf(format, args...)
}
