package serve

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionHeader is the streamable HTTP transport's session header.
const sessionHeader = "Mcp-Session-Id"

// sessionLRU caps the live MCP sessions of the stateful HTTP handler and
// expires idle ones. A request that would open one more than max first
// closes the least recently used session that has no POST running,
// sparing those whose client holds its event stream open; when
// every session is at work it is refused with 503. A session with no
// request at all (no POST running, no event stream open) for timeout is
// closed. (The SDK's own StreamableHTTPOptions.SessionTimeout counts POSTs
// only: it would close the session of a client that holds its event
// stream open through a quiet spell.) It learns of sessions from the
// requests and responses it sees, and forgets those the server no longer
// has.
type sessionLRU struct {
	max     int
	timeout time.Duration
	server  *mcp.Server

	mu       sync.Mutex
	sessions map[string]*sessionUse
	opening  int // requests that may open a session, not yet done
}

// sessionUse is what sessionLRU knows of one session.
type sessionUse struct {
	last    time.Time // the latest request's start or end
	running int       // POSTs in progress
	streams int       // other requests in progress (event streams)
}

// before orders the sessions that may be closed: those without an open
// event stream (no client listening) first, then the least recently
// used.
func (u *sessionUse) before(v *sessionUse) bool {
	if (u.streams == 0) != (v.streams == 0) {
		return u.streams == 0
	}
	return u.last.Before(v.last)
}

func newSessionLRU(max int, timeout time.Duration, server *mcp.Server) *sessionLRU {
	return &sessionLRU{max: max, timeout: timeout, server: server, sessions: map[string]*sessionUse{}}
}

// expireEvery closes idle sessions (see sessionLRU) until ctx ends,
// looking every quarter of the timeout (at most every 30 s).
func (l *sessionLRU) expireEvery(ctx context.Context) {
	tick := time.NewTicker(min(l.timeout/4, 30*time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			l.expire(now)
		}
	}
}

// expire closes the sessions idle since before now-timeout.
func (l *sessionLRU) expire(now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, u := range l.sessions {
		if u.running == 0 && u.streams == 0 && now.Sub(u.last) >= l.timeout {
			delete(l.sessions, id)
			l.close(id)
		}
	}
}

// wrap applies the cap to the stateful handler next.
func (l *sessionLRU) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get(sessionHeader); id != "" {
			done := l.use(id, r.Method == http.MethodPost)
			defer done()
			next.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r) // the SDK refuses it
			return
		}
		if !l.admit() {
			w.Header().Set("Retry-After", "5")
			http.Error(w, fmt.Sprintf("jobdeck: %d MCP sessions are open and each is running a request; try again shortly", l.max), http.StatusServiceUnavailable)
			return
		}
		cw := &sessionCapture{ResponseWriter: w, l: l}
		next.ServeHTTP(cw, r)
		cw.register() // if nothing was written
		l.mu.Lock()
		l.opening--
		l.mu.Unlock()
	})
}

// sessionCapture records the session a response opens as its headers go
// out: the client may use the session (its event stream, say) before the
// handler has returned.
type sessionCapture struct {
	http.ResponseWriter
	l    *sessionLRU
	once sync.Once
}

func (c *sessionCapture) register() {
	c.once.Do(func() {
		if id := c.Header().Get(sessionHeader); id != "" {
			c.l.mu.Lock()
			c.l.sessions[id] = &sessionUse{last: time.Now()}
			c.l.mu.Unlock()
		}
	})
}

func (c *sessionCapture) WriteHeader(code int) {
	c.register()
	c.ResponseWriter.WriteHeader(code)
}

func (c *sessionCapture) Write(p []byte) (int, error) {
	c.register()
	return c.ResponseWriter.Write(p)
}

func (c *sessionCapture) Flush() {
	c.register()
	http.NewResponseController(c.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the real writer.
func (c *sessionCapture) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// use records a request of session id; done ends it.
func (l *sessionLRU) use(id string, post bool) (done func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	u := l.sessions[id]
	if u == nil {
		return func() {}
	}
	u.last = time.Now()
	n := &u.streams
	if post {
		n = &u.running
	}
	*n++
	return func() {
		l.mu.Lock()
		*n--
		u.last = time.Now()
		l.mu.Unlock()
	}
}

// admit makes room for a session that a request may open, closing the
// least recently used idle one when all places are taken. It reports
// false when none could be freed.
func (l *sessionLRU) admit() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.sessions)+l.opening >= l.max {
		l.forgetGone()
	}
	for len(l.sessions)+l.opening >= l.max {
		var lru string
		for id, u := range l.sessions {
			if u.running == 0 && (lru == "" || u.before(l.sessions[lru])) {
				lru = id
			}
		}
		if lru == "" {
			return false
		}
		delete(l.sessions, lru)
		l.close(lru)
	}
	l.opening++
	return true
}

// forgetGone drops the sessions the server no longer has (expired,
// deleted by their client, failed to initialize). l.mu is held.
func (l *sessionLRU) forgetGone() {
	live := map[string]bool{}
	for ss := range l.server.Sessions() {
		live[ss.ID()] = true
	}
	for id := range l.sessions {
		if !live[id] {
			delete(l.sessions, id)
		}
	}
}

// close ends the server's session id. Closing waits for the session's
// handlers, so it runs apart from the request that asked for it.
func (l *sessionLRU) close(id string) {
	for ss := range l.server.Sessions() {
		if ss.ID() == id {
			go ss.Close()
			return
		}
	}
}

// live is the number of sessions counted against the cap.
func (l *sessionLRU) live() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.forgetGone()
	return len(l.sessions)
}
