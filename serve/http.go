package serve

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTP defaults (HTTPOptions' zero values).
const (
	DefaultSessionTimeout = 10 * time.Minute // an MCP session unused this long is closed
	DefaultMaxSessions    = 64               // live MCP sessions; the least recently used goes first
	defaultHeaderTimeout  = 10 * time.Second // to read a request's headers
	defaultBodyTimeout    = 30 * time.Second // to read a request's body
	defaultWriteTimeout   = 30 * time.Second // for each write of a response
	defaultIdleTimeout    = time.Minute      // a kept-alive connection between requests
	maxHeaderBytes        = 64 << 10
)

// HTTPOptions configure RunHTTP. Token is required; zero durations and
// counts take the defaults.
type HTTPOptions struct {
	// Addr is the loopback address to listen on: "127.0.0.1:PORT" (any of
	// 127.0.0.0/8), "[::1]:PORT" or "localhost:PORT"; port 0 picks one.
	Addr string
	// Token is what every request must carry, as "Authorization: Bearer
	// <Token>" or in the token query parameter (see CheckToken).
	Token string
	// Ready, if not nil, is called with the address once it listens.
	Ready func(addr string)
	// Structured is StreamOptions.Structured for every client of this
	// server (--serve --http ADDR --structured).
	Structured bool
	// Log receives the server's errors, each kind once and then
	// rate-limited (see errorLog); nil discards them.
	Log io.Writer
	// SessionTimeout closes an MCP session that has had no request, and no
	// event stream open, for this long (DefaultSessionTimeout).
	SessionTimeout time.Duration
	// MaxSessions is the most MCP sessions open at once
	// (DefaultMaxSessions).
	MaxSessions int
	// MaxConns is the most connections served at once; the default is
	// derived from the file descriptor limit (RLIMIT_NOFILE): half of
	// what is left after 32 for jobs, between 4 and 128.
	MaxConns int
	// HeaderTimeout, BodyTimeout, WriteTimeout (per write) and
	// IdleTimeout (between requests) bound each connection's I/O: 10 s,
	// 30 s, 30 s and 1 min by default.
	HeaderTimeout, BodyTimeout, WriteTimeout, IdleTimeout time.Duration
}

func (o HTTPOptions) withDefaults() HTTPOptions {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.SessionTimeout, DefaultSessionTimeout)
	def(&o.HeaderTimeout, defaultHeaderTimeout)
	def(&o.BodyTimeout, defaultBodyTimeout)
	def(&o.WriteTimeout, defaultWriteTimeout)
	def(&o.IdleTimeout, defaultIdleTimeout)
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.MaxConns <= 0 {
		o.MaxConns = defaultMaxConns()
	}
	return o
}

// RunHTTP serves the MCP tools over streamable HTTP at http://Addr/mcp
// until ctx ends, then shuts down and returns nil. An address off the
// loopback interface fails with ErrNotLoopback, an unusable token with
// ErrBadToken. Every request without the token gets 401; a browser page
// of another origin gets 403. Protocol versions up to 2025-11-25 get MCP
// sessions (Mcp-Session-Id), each with its own finished-job notes, at
// most MaxSessions of them, closed after SessionTimeout unused; requests
// of 2026-07-28 and later are sessionless (served statelessly, as that
// protocol requires). Connections are capped and time-limited (see
// HTTPOptions), and idle ones give way to new ones.
func RunHTTP(ctx context.Context, core Core, opts HTTPOptions) error {
	h, err := startHTTP(ctx, core, opts)
	if err != nil {
		return err
	}
	select {
	case err := <-h.served:
		h.stop()
		return fmt.Errorf("serve http: %w", err)
	case <-ctx.Done():
	}
	h.stop()
	return nil
}

// httpServer is a running RunHTTP.
type httpServer struct {
	addr     string
	s        *server
	srv      *http.Server
	sessions *sessionLRU
	conns    *connLimit
	served   chan error
	cancel   context.CancelFunc
}

// startHTTP listens and serves in the background.
func startHTTP(ctx context.Context, core Core, opts HTTPOptions) (*httpServer, error) {
	opts = opts.withDefaults()
	if err := CheckToken(opts.Token); err != nil {
		return nil, fmt.Errorf("serve http: %w", err)
	}
	if err := checkLoopback(opts.Addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, listenFailure(opts.Addr, err)
	}
	if err := checkLoopback(ln.Addr().String()); err != nil {
		ln.Close()
		return nil, err
	}
	life, cancel := context.WithCancel(ctx)
	h := &httpServer{addr: ln.Addr().String(), s: newServer(core, options{life: life, structured: opts.Structured}), served: make(chan error, 1), cancel: cancel}
	elog := newErrorLog(opts.Log, opts.Token)
	h.conns = newConnLimit(ln, opts.MaxConns, elog)
	h.sessions = newSessionLRU(opts.MaxSessions, opts.SessionTimeout, h.s.mcp)
	go h.sessions.expireEvery(life)
	get := func(*http.Request) *mcp.Server { return h.s.mcp }
	sdkLog := slog.New(slog.NewTextHandler(elog, &slog.HandlerOptions{Level: slog.LevelWarn, ReplaceAttr: dropTime}))
	stateful := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Logger: sdkLog})
	stateless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true, Logger: sdkLog})
	mux := http.NewServeMux()
	mux.Handle("/mcp", byProtocol(h.sessions.wrap(stateful), stateless))
	_, port, _ := net.SplitHostPort(h.addr)
	h.srv = &http.Server{
		Handler:           h.conns.guard(localOrigin(newBearer(opts.Token).require(h.conns.authenticated(mux)), port), opts.BodyTimeout, opts.WriteTimeout),
		ReadHeaderTimeout: opts.HeaderTimeout,
		WriteTimeout:      opts.WriteTimeout,
		IdleTimeout:       opts.IdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          log.New(elog, "", 0),
	}
	h.conns.install(h.srv)
	go func() { h.served <- h.srv.Serve(h.conns) }()
	if opts.Ready != nil {
		opts.Ready(h.addr)
	}
	return h, nil
}

// stop shuts the server down: requests in flight get closeTimeout to
// finish, then every connection and session is closed.
func (h *httpServer) stop() {
	h.cancel()
	sctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	if err := h.srv.Shutdown(sctx); err != nil {
		// Open event streams do not end on their own: close them.
		h.srv.Close()
	}
	for ss := range h.s.mcp.Sessions() {
		ss.Close()
	}
}

// sessionlessVersion is the first protocol version without sessions
// (SEP-2575). The SDK serves it only from a stateless handler, and a
// stateless handler has no sessions for the older versions: so requests
// are routed by the version they carry.
const sessionlessVersion = "2026-07-28"

// byProtocol sends requests that carry a protocol version of 2026-07-28
// or later (in the MCP-Protocol-Version header, which that protocol
// requires on every request) and no session to sessionless, the rest to
// sessions. Versions are dates, so they compare as strings.
func byProtocol(sessions, sessionless http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("Mcp-Protocol-Version"); v >= sessionlessVersion && r.Header.Get(sessionHeader) == "" {
			sessionless.ServeHTTP(w, r)
			return
		}
		sessions.ServeHTTP(w, r)
	})
}

// dropTime leaves the time out of the SDK's log records: errorLog tells
// kinds of messages apart by what is left.
func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}
