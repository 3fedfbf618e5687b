package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/serve/stdio"
)

// ErrNotLoopback is returned by RunHTTP for an address that is not on the
// loopback interface.
var ErrNotLoopback = errors.New("not a loopback address")

// closeTimeout bounds how long a shutdown waits for requests in flight.
const closeTimeout = 2 * time.Second

// RunStdio serves the MCP tools over in and out (newline-delimited JSON-RPC,
// as on stdin/stdout) until EOF on in, when it returns nil, or until ctx
// ends, when it returns ctx's error. Nothing but JSON-RPC is ever written
// to out. A line that is not a JSON-RPC message the SDK takes safely gets
// a JSON-RPC error reply (parse error or invalid request) and the session
// goes on (serve/stdio). At EOF, every request already read is
// answered before it returns: those still running after 30 s have their
// waits cut short. When ctx ends, requests still running are cancelled.
// Stopping the jobs is the caller's part (jobs.Table.Close). in and out
// may be any stream: a socket's two halves as well as stdin and stdout.
func RunStdio(ctx context.Context, core Core, in io.Reader, out io.Writer) error {
	return RunStream(ctx, core, in, out, StreamOptions{})
}

// StreamOptions are the settings of one MCP session served by RunStream.
type StreamOptions struct {
	// OnClient, when set, is called with the client's name once it is
	// known: from its initialize request, or from the client info of a
	// later request (protocol 2026-07-28 has no initialize). It is called
	// once, from a request's goroutine, and must not block.
	OnClient func(name string)
	// Structured gives every result structured content beside its text,
	// and each tool an output schema (--serve --structured); the text and
	// the JSON each fit the result's budget on their own. Without it a
	// result is its text alone: what agent clients hand their model.
	Structured bool
}

// RunStream is RunStdio with per-session settings: a jobdeck session runs
// one on each agent's relayed connection.
func RunStream(ctx context.Context, core Core, in io.Reader, out io.Writer, opts StreamOptions) error {
	waits, cut := context.WithCancelCause(ctx)
	defer cut(errStopping)
	s := newServer(core, options{life: waits, onClient: opts.OnClient, structured: opts.Structured})
	return s.serveLines(ctx, func() { cut(errStopping) }, in, out, func() { cut(errInputEnded) })
}

// Why the handlers' waits end early (the cause of options.life), as a
// wait's note says it.
var (
	errStopping   = errors.New("the session is ending")
	errInputEnded = errors.New("the session is ending (the client's input ended)")
)

// serveLines runs one MCP session of s over in and out; cutWaits ends the
// handlers' waits (options.life) when ctx ends, inputEnded (nil: the
// same) when the input ended and the calls still running are cut short.
func (s *server) serveLines(ctx context.Context, cutWaits func(), in io.Reader, out io.Writer, inputEnded ...func()) error {
	cutDrain := cutWaits
	if len(inputEnded) > 0 {
		cutDrain = inputEnded[0]
	}
	f, pr, pw := stdio.Open(ctx, in, out, cutDrain)
	ss, err := s.mcp.Connect(ctx, &mcp.IOTransport{Reader: pr, Writer: pw, MaxLineLength: -1}, nil)
	if err != nil {
		pr.Close()
		return fmt.Errorf("serve stdio: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case err := <-done:
		// The client closed its end: EOF is the normal way to stop.
		if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
			return nil
		}
		return fmt.Errorf("serve stdio: %w", err)
	case <-ctx.Done():
		// End waiting handlers first, so that Close does not wait for them;
		// a reader blocked on a non-closable input cannot be interrupted,
		// so the wait is bounded.
		cutWaits()
		closed := make(chan struct{})
		go func() { ss.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(closeTimeout):
		}
		// The session's context is over, so the SDK writes no answer
		// now: a call still unanswered gets an error that says why, as
		// the relay's do (ARCHITECTURE.md §2).
		f.AnswerPending(stdio.CodeServerExiting, "jobdeck is shutting down (it was told to exit) before it answered this call")
		return ctx.Err()
	}
}

// localOrigin refuses requests whose Origin header names another origin
// than the server's own: the MCP transport spec asks servers to validate
// Origin, against DNS rebinding and against the pages of other local
// servers (a dev server on localhost:3000 is another origin, and must not
// drive local jobs). An origin passes only when it is http, its host a
// loopback name or address, and its port the server's own (port; 80 when
// the origin gives none). Requests without Origin (programs, not
// browsers) pass. ARCHITECTURE.md §5, Security.
func localOrigin(next http.Handler, port string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && !sameServer(o, port) {
			refuseAndClose(w, "jobdeck serves local clients only: Origin "+o+" is not this server (http on a loopback address, port "+port+")", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameServer reports whether origin is http on a loopback host at port.
func sameServer(origin, port string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || !isLoopbackHost(u.Hostname()) {
		return false
	}
	p := u.Port()
	if p == "" {
		p = "80"
	}
	return p == port
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// CheckHTTPAddr accepts the address of --serve --http: host:port whose
// host is "localhost" or a loopback IP (127.0.0.0/8, ::1). Anything else
// is an error that says what to give (ErrNotLoopback for another host),
// so that the command line can refuse it before anything starts.
func CheckHTTPAddr(addr string) error { return checkLoopback(addr) }

// checkLoopback is CheckHTTPAddr.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve http: address %q: %v: give host:port, e.g. 127.0.0.1:8765", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("serve http: %q: %w; jobdeck serves only on this machine: use 127.0.0.1:PORT, [::1]:PORT or localhost:PORT", addr, ErrNotLoopback)
}
