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
// When one more arrives, the connection that has done nothing for the
// longest is closed to make room: one that sent no request yet, one idle
// between requests, or one whose request body stalled. Only when every
// connection is at work does Accept wait (the newcomer waits in the
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

// evict closes the connection idle the longest, other than spare (the
// newcomer), if any; it reports whether it closed one.
func (l *connLimit) evict(spare net.Conn) bool {
	now := time.Now()
	l.mu.Lock()
	var victim *connInfo
	for _, info := range l.conns {
		idle := info.state == http.StateNew || info.state == http.StateIdle ||
			(info.state == http.StateActive && info.body && now.Sub(info.since) >= stallAfter)
		if idle && !info.closing && info.conn != spare && (victim == nil || info.since.Before(victim.since)) {
			victim = info
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

// setState is http.Server's ConnState hook.
func (l *connLimit) setState(c net.Conn, state http.ConnState) {
	l.mu.Lock()
	info := l.conns[c]
	switch {
	case info == nil:
	case state == http.StateClosed || state == http.StateHijacked:
		delete(l.conns, c)
	default:
		info.state, info.since, info.body = state, time.Now(), false
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
