package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// stallAfter is how long a request body may go unfinished before its
// connection counts as idle (a real client sends a JSON-RPC message at
// once; a slow-body connection only holds a place).
const stallAfter = time.Second

// connLimit is a listener that serves at most max connections at once.
// When one more arrives, a connection is closed to make room: the oldest
// of those that have not shown the token (no request yet, or one being
// refused), else the one that has done nothing for the longest (idle
// between requests, or whose request body stalled). A request without
// the token is refused as soon as its headers are in, and its connection
// closed without reading its body (refuseAndClose), so that no connection
// without the token holds a place for longer than its headers take (at
// most the header timeout). Only when every connection is at work for a
// request that showed the token does Accept wait (the newcomer waits in the
// kernel's backlog, as with golang.org/x/net/netutil.LimitListener). Out
// of file descriptors, it closes an idle connection and tries again
// rather than failing. Connections are known through http.Server's
// ConnState and ConnContext hooks (see install).
type connLimit struct {
	net.Listener
	max int
	log io.Writer

	mu     sync.Mutex
	conns  map[net.Conn]*connInfo
	freed  chan struct{} // 1-buffered: a connection closed
	closed chan struct{}
	once   sync.Once
}

// connInfo is what connLimit knows of a connection; guarded by
// connLimit.mu.
type connInfo struct {
	conn    net.Conn
	state   http.ConnState
	since   time.Time // when the state (or the body read) began
	body    bool      // a handler is reading its request body
	authed  bool      // its current request showed the token
	closing bool      // closed by connLimit, not yet by the server
}

func newConnLimit(ln net.Listener, max int, log io.Writer) *connLimit {
	return &connLimit{Listener: ln, max: max, log: log, conns: map[net.Conn]*connInfo{},
		freed: make(chan struct{}, 1), closed: make(chan struct{})}
}

// install hooks l into srv, which must serve l.
func (l *connLimit) install(srv *http.Server) {
	srv.ConnState = l.setState
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		l.mu.Lock()
		info := l.conns[c]
		l.mu.Unlock()
		return context.WithValue(ctx, connKey{}, info)
	}
}

type connKey struct{}

// Accept returns the next connection once there is room for it.
func (l *connLimit) Accept() (net.Conn, error) {
	backoff := 5 * time.Millisecond
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if !errors.Is(err, syscall.EMFILE) && !errors.Is(err, syscall.ENFILE) {
				return nil, err
			}
			fmt.Fprintf(l.log, "accepting a connection: %v; closing idle connections", err)
			if !l.evict(nil) {
				select {
				case <-l.freed:
				case <-time.After(backoff):
				case <-l.closed:
					return nil, net.ErrClosed
				}
				backoff = min(2*backoff, time.Second)
			}
			continue
		}
		backoff = 5 * time.Millisecond
		l.mu.Lock()
		l.conns[c] = &connInfo{conn: c, state: http.StateNew, since: time.Now()}
		l.mu.Unlock()
		for l.open() > l.max && !l.evict(c) {
			select {
			case <-l.freed:
			case <-time.After(stallAfter): // a body may have stalled meanwhile
			case <-l.closed:
				c.Close()
				return nil, net.ErrClosed
			}
		}
		return c, nil
	}
}

// Close stops Accept and closes the listener.
func (l *connLimit) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// open counts the connections not being closed.
func (l *connLimit) open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, info := range l.conns {
		if !info.closing {
			n++
		}
	}
	return n
}

// evict closes one connection other than spare (the newcomer), if any
// may go: the oldest of those without the token, else the one idle the
// longest; it reports whether it closed one.
func (l *connLimit) evict(spare net.Conn) bool {
	now := time.Now()
	l.mu.Lock()
	var victim *connInfo
	victimRank := 0
	for _, info := range l.conns {
		rank := evictRank(info, now)
		if rank == 0 || info.closing || info.conn == spare {
			continue
		}
		if victim == nil || rank > victimRank || (rank == victimRank && info.since.Before(victim.since)) {
			victim, victimRank = info, rank
		}
	}
	if victim != nil {
		victim.closing = true
	}
	l.mu.Unlock()
	if victim == nil {
		return false
	}
	victim.conn.Close()
	return true
}

// evictRank says how readily a connection gives way: 2 when it has not
// shown the token (no request read yet, or a request being refused), 1
// when it is idle between requests or its request body stalled, 0 when it
// is at work for a request that showed the token. Guarded by mu.
func evictRank(info *connInfo, now time.Time) int {
	switch {
	case info.state == http.StateNew || (info.state == http.StateActive && !info.authed):
		return 2
	case info.state == http.StateIdle || (info.state == http.StateActive && info.body && now.Sub(info.since) >= stallAfter):
		return 1
	}
	return 0
}

// setState is http.Server's ConnState hook.
func (l *connLimit) setState(c net.Conn, state http.ConnState) {
	l.mu.Lock()
	info := l.conns[c]
	switch {
	case info == nil:
	case state == http.StateClosed || state == http.StateHijacked:
		delete(l.conns, c)
	default:
		info.state, info.since, info.body, info.authed = state, time.Now(), false, false
	}
	l.mu.Unlock()
	if state == http.StateClosed || state == http.StateHijacked {
		select {
		case l.freed <- struct{}{}:
		default:
		}
	}
}

// reading records that the request on info's connection is reading its
// body (or has finished).
func (l *connLimit) reading(info *connInfo, body bool) {
	if info == nil {
		return
	}
	l.mu.Lock()
	info.body = body
	if body {
		info.since = time.Now()
	}
	l.mu.Unlock()
}

// authenticated marks the connection of each request that reaches next
// as showing the token: it goes below the bearer check.
func (l *connLimit) authenticated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info, _ := r.Context().Value(connKey{}).(*connInfo); info != nil {
			l.mu.Lock()
			info.authed = true
			l.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

// refuseAndClose answers a request that may not go on (no token, a
// foreign origin) with status and msg, and closes its connection once the
// answer is out, without reading its body: net/http would otherwise read
// up to 256 KiB of an unread body before answering, holding the
// connection for as long as the client stalls it (ARCHITECTURE.md §5,
// Security).
func refuseAndClose(w http.ResponseWriter, msg string, status int) {
	w.Header().Set("Connection", "close")
	// Any read still to come (the discard of the body on close) fails
	// at once.
	http.NewResponseController(w).SetReadDeadline(time.Now())
	http.Error(w, msg, status)
}

// guard bounds each request's I/O: its body must arrive within
// bodyTimeout, and every write must go through within writeTimeout
// (counted per write, so a long wait for a job or an open event stream
// is not cut, but a client that stops reading is).
func (l *connLimit) guard(next http.Handler, bodyTimeout, writeTimeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		info, _ := r.Context().Value(connKey{}).(*connInfo)
		if r.Body != nil && r.Body != http.NoBody {
			rc.SetReadDeadline(time.Now().Add(bodyTimeout))
			l.reading(info, true)
			r.Body = &bodyGuard{ReadCloser: r.Body, done: func() {
				// No deadline once the body is in: the server's
				// background read (which notices a client that went
				// away) must not end a long request.
				rc.SetReadDeadline(time.Time{})
				l.reading(info, false)
			}}
		}
		next.ServeHTTP(&writeGuard{ResponseWriter: w, rc: rc, timeout: writeTimeout}, r)
		l.reading(info, false)
	})
}

// bodyGuard calls done once, when the body has been read to its end.
type bodyGuard struct {
	io.ReadCloser
	done func()
	once sync.Once
}

func (b *bodyGuard) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.once.Do(b.done)
	}
	return n, err
}

// writeGuard sets a write deadline before each write and flush.
type writeGuard struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (w *writeGuard) Write(p []byte) (int, error) {
	w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	return w.ResponseWriter.Write(p)
}

func (w *writeGuard) Flush() {
	w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *writeGuard) Unwrap() http.ResponseWriter { return w.ResponseWriter }
