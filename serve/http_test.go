package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testToken is the token of the in-process HTTP servers.
const testToken = "test-token-0123456789abcdef"

// tokenClient is an HTTP client that sends token as a bearer token.
func tokenClient(token string) *http.Client {
	return &http.Client{Transport: bearerTransport{token: token, next: http.DefaultTransport}}
}

type bearerTransport struct {
	token string
	next  http.RoundTripper
}

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// serveHTTPBench is serveHTTPTest for a benchmark, over a fake core.
func serveHTTPBench(b *testing.B) *httpServer {
	return serveHTTPTest(b, &fakeCore{}, HTTPOptions{})
}

// serveHTTPTest starts an in-process HTTP server over core, stopped at
// the test's end.
func serveHTTPTest(t testing.TB, core Core, opts HTTPOptions) *httpServer {
	t.Helper()
	opts.Addr, opts.Token = "127.0.0.1:0", testToken
	ctx, cancel := context.WithCancel(context.Background())
	h, err := startHTTP(ctx, core, opts)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); h.stop() })
	return h
}

// dialHTTP connects an MCP client to h at the given protocol version
// ("": the client's newest).
func dialHTTP(t *testing.T, h *httpServer, name, version string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "0"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: "http://" + h.addr + "/mcp", HTTPClient: tokenClient(testToken)},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect (protocol %q): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// post sends one JSON-RPC message over HTTP and returns the response.
func post(t testing.TB, url, body string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestHTTPToken: without the token, every request is refused with 401;
// with it, in the header or the query, the tools work.
func TestHTTPToken(t *testing.T) {
	t.Parallel()
	h := serveHTTPTest(t, &fakeCore{}, HTTPOptions{})
	base := "http://" + h.addr
	for name, c := range map[string]struct {
		path   string
		header map[string]string
	}{
		"no token":        {"/mcp", nil},
		"wrong token":     {"/mcp", map[string]string{"Authorization": "Bearer " + testToken + "x"}},
		"token prefix":    {"/mcp", map[string]string{"Authorization": "Bearer " + testToken[:len(testToken)-1]}},
		"empty bearer":    {"/mcp", map[string]string{"Authorization": "Bearer "}},
		"basic scheme":    {"/mcp", map[string]string{"Authorization": "Basic " + testToken}},
		"wrong query":     {"/mcp?token=nope", nil},
		"header wins":     {"/mcp?token=" + testToken, map[string]string{"Authorization": "Bearer nope"}},
		"other path":      {"/", nil},
		"well-known path": {"/.well-known/oauth-protected-resource", nil},
	} {
		resp := post(t, base+c.path, testkit.LineInitialize, c.header)
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: status %d, WWW-Authenticate %q, want 401 Bearer", name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
		if strings.Contains(string(body), testToken) {
			t.Errorf("%s: the 401 body shows the token", name)
		}
	}
	for name, c := range map[string]struct {
		path   string
		header map[string]string
	}{
		"header":           {"/mcp", map[string]string{"Authorization": "Bearer " + testToken}},
		"header lowercase": {"/mcp", map[string]string{"Authorization": "bearer " + testToken}},
		"query":            {"/mcp?token=" + testToken, nil},
	} {
		if resp := post(t, base+c.path, testkit.LineInitialize, c.header); resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d, want 200", name, resp.StatusCode)
		}
	}
	cs := dialHTTP(t, h, "t", "")
	ok(t, cs, toolBackground, map[string]any{"command": "make"})
}

// TestWithoutToken: what the handlers below the check see of a URL that
// carried the token.
func TestWithoutToken(t *testing.T) {
	t.Parallel()
	r, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/mcp?a=1&token="+testToken+"&b=2", nil)
	r.RequestURI = r.URL.RequestURI()
	r2 := withoutToken(r)
	if strings.Contains(r2.URL.String(), testToken) || strings.Contains(r2.RequestURI, testToken) || r2.URL.Query().Get("a") != "1" {
		t.Errorf("without the token: URL %q, RequestURI %q", r2.URL, r2.RequestURI)
	}
	if !strings.Contains(r.URL.RawQuery, testToken) {
		t.Error("the original request was changed")
	}
}

// TestHTTPProtocolVersions: HTTP offers every protocol version stdio
// does, each negotiated as asked.
func TestHTTPProtocolVersions(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	h := serveHTTPTest(t, fc, HTTPOptions{})
	for _, v := range mcp.SupportedProtocolVersions() {
		cs := dialHTTP(t, h, "client-"+v, v)
		if got := cs.InitializeResult().ProtocolVersion; got != v {
			t.Errorf("asked for %s, negotiated %s", v, got)
		}
		tools, err := cs.ListTools(t.Context(), nil)
		if err != nil || len(tools.Tools) != 3 {
			t.Errorf("%s: tools/list = %v, %v", v, tools, err)
		}
		ok(t, cs, toolStatus, map[string]any{})
	}
	// The same versions as stdio: the server does not narrow the SDK's.
	cs, _, _ := stdioPair(t, t.Context(), fc)
	if got := cs.InitializeResult().ProtocolVersion; got != mcp.SupportedProtocolVersions()[0] {
		t.Errorf("stdio negotiated %s, want %s", got, mcp.SupportedProtocolVersions()[0])
	}
}

// TestHTTPNotesSessionless: over the sessionless protocol, notes are kept
// per client (name and version), each finished job noted once.
func TestHTTPNotesSessionless(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	h := serveHTTPTest(t, fc, HTTPOptions{})
	a, b := dialHTTP(t, h, "a", ""), dialHTTP(t, h, "b", "")
	if v := a.InitializeResult().ProtocolVersion; v < sessionlessVersion {
		t.Fatalf("negotiated %s, want the sessionless protocol", v)
	}
	ok(t, a, toolBackground, map[string]any{"command": "make"})
	fc.end(0, model.Exit{Code: 2})
	for name, cs := range map[string]*mcp.ClientSession{"a": a, "b": b} {
		if msg := fails(t, cs, toolKill, map[string]any{"id": 3}); !strings.Contains(msg, "job 0 exited 2") {
			t.Errorf("client %s: no note in %q", name, msg)
		}
		if msg := fails(t, cs, toolKill, map[string]any{"id": 3}); strings.Contains(msg, "job 0") {
			t.Errorf("client %s: note repeated in %q", name, msg)
		}
	}
}

// initSession opens a raw MCP session over HTTP and returns its id.
func initSession(t testing.TB, h *httpServer) string {
	t.Helper()
	resp := post(t, "http://"+h.addr+"/mcp", testkit.LineInitialize, map[string]string{"Authorization": "Bearer " + testToken})
	io.Copy(io.Discard, resp.Body)
	id := resp.Header.Get(sessionHeader)
	if resp.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session %q", resp.StatusCode, id)
	}
	return id
}

// pingSession sends a ping in session id and returns the HTTP status.
func pingSession(t *testing.T, h *httpServer, id string) int {
	t.Helper()
	resp := post(t, "http://"+h.addr+"/mcp", testkit.LinePing("1"), map[string]string{
		"Authorization": "Bearer " + testToken, sessionHeader: id, "Mcp-Protocol-Version": "2025-06-18"})
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// TestHTTPSessionsLRU: beyond MaxSessions, the least recently used
// session is closed, not a busy or recent one.
func TestHTTPSessionsLRU(t *testing.T) {
	t.Parallel()
	h := serveHTTPTest(t, &fakeCore{}, HTTPOptions{MaxSessions: 4})
	ids := make([]string, 4)
	for i := range ids {
		ids[i] = initSession(t, h)
	}
	if code := pingSession(t, h, ids[0]); code != http.StatusOK { // 0 is now the most recent
		t.Fatalf("ping: %d", code)
	}
	initSession(t, h) // closes 1, the least recently used
	waitFor(t, 5*time.Second, func() bool { return pingSession(t, h, ids[1]) == http.StatusNotFound })
	for _, i := range []int{0, 2, 3} {
		if code := pingSession(t, h, ids[i]); code != http.StatusOK {
			t.Errorf("session %d: ping got %d, want 200", i, code)
		}
	}
	if n := h.sessions.live(); n > 4 {
		t.Errorf("%d sessions live, want at most 4", n)
	}
}

// TestHTTPSessionsAllBusy: when every session runs a request, a new one
// is refused with 503 rather than a busy one closed.
func TestHTTPSessionsAllBusy(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{blockWait: true}
	h := serveHTTPTest(t, fc, HTTPOptions{MaxSessions: 1})
	cs := dialHTTP(t, h, "busy", "2025-11-25")
	ok(t, cs, toolBackground, map[string]any{"command": "x"})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go cs.CallTool(ctx, &mcp.CallToolParams{Name: toolStatus, Arguments: map[string]any{"id": 0, "wait": 30}})
	// The wait itself is asleep in the core, so its POST is running. A
	// count above zero is not enough: the background call's own count may
	// linger a moment after its answer, before the wait has begun.
	waitFor(t, 5*time.Second, func() bool { return fc.blockedWaits() > 0 })
	resp := post(t, "http://"+h.addr+"/mcp", testkit.LineInitialize, map[string]string{"Authorization": "Bearer " + testToken})
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a new session while the only one is busy: status %d, want 503", resp.StatusCode)
	}
}

// TestErrorLog: one line per kind of message, then summaries at growing
// intervals; the token never shows.
func TestErrorLog(t *testing.T) {
	t.Parallel()
	var out recorder
	l := newErrorLog(&out, testToken)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	l.now = func() time.Time { return now }
	for i := range 3600 { // an error a second for an hour
		fmt.Fprintf(l, "http: Accept error: accept tcp 127.0.0.1:%d: too many open files; retrying in 1s", 8000+i%7)
		now = now.Add(time.Second)
	}
	fmt.Fprintf(l, "request /mcp?token=%s failed", testToken)
	lines := strings.Split(strings.TrimSpace(string(out.bytes())), "\n")
	// 1 + at 1, 3, 7, 15, 31 minutes + the other kind.
	if len(lines) != 7 {
		t.Errorf("%d lines, want 7:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	if !strings.Contains(lines[1], "(and 59 more like it since 12:00:00)") {
		t.Errorf("summary line %q", lines[1])
	}
	if last := lines[len(lines)-1]; strings.Contains(last, testToken) || !strings.Contains(last, "[token]") {
		t.Errorf("token not hidden: %q", last)
	}
}

// TestHTTPOrigin: through a real server on 127.0.0.1, a page of another
// local origin (a dev server's, localhost:3000) gets 403 even with the
// token, and its connection is closed; the server's own origin, by name
// or address, gets through.
func TestHTTPOrigin(t *testing.T) {
	t.Parallel()
	h := serveHTTPTest(t, &fakeCore{}, HTTPOptions{})
	_, port, _ := net.SplitHostPort(h.addr)
	url := "http://" + h.addr + "/mcp"
	for origin, want := range map[string]int{
		"http://localhost:3000":           http.StatusForbidden,
		"http://127.0.0.1:3000":           http.StatusForbidden,
		"http://localhost:" + port:        http.StatusOK,
		"http://127.0.0.1:" + port:        http.StatusOK,
		"http://evil.example:" + port:     http.StatusForbidden,
		"https://localhost:" + port:       http.StatusForbidden,
		"http://localhost." + port + ".x": http.StatusForbidden,
	} {
		resp := post(t, url, testkit.LineInitialize, map[string]string{"Authorization": "Bearer " + testToken, "Origin": origin})
		if resp.StatusCode != want {
			t.Errorf("Origin %s: status %d, want %d", origin, resp.StatusCode, want)
		}
		if want == http.StatusForbidden && !resp.Close {
			t.Errorf("Origin %s: the connection is kept open after the 403", origin)
		}
	}
}
