package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/serve/stdio"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioPair runs RunStdio on pipes and returns the client's ends, the
// recorder of everything RunStdio wrote, and RunStdio's result.
func stdioPair(t *testing.T, ctx context.Context, core Core) (*mcp.ClientSession, *recorder, <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	rec := &recorder{}
	done := make(chan error, 1)
	go func() {
		done <- RunStdio(ctx, core, inR, io.MultiWriter(rec, outW))
		outW.Close()
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs, rec, done
}

func TestRunStdioEOF(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs, rec, done := stdioPair(t, t.Context(), fc)
	ok(t, cs, toolBackground, map[string]any{"command": "x"})
	fails(t, cs, toolStatus, map[string]any{"id": 5})
	cs.Close() // closes RunStdio's input
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("RunStdio at EOF = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("RunStdio did not return at EOF")
	}
	checkJSONRPC(t, rec.bytes())
}

// TestRunStdioCancel: when ctx ends, RunStdio returns promptly even while
// a job_status waits, and the wait is cancelled.
func TestRunStdioCancel(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{blockWait: true}
	ctx, cancel := context.WithCancel(t.Context())
	cs, _, done := stdioPair(t, ctx, fc)
	ok(t, cs, toolBackground, map[string]any{"command": "x"})
	go cs.CallTool(t.Context(), &mcp.CallToolParams{Name: toolStatus, Arguments: map[string]any{"id": 0, "wait": 600}})
	time.Sleep(100 * time.Millisecond) // let the call reach the core
	start := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("RunStdio after cancel = %v, want context.Canceled", err)
		}
		if d := time.Since(start); d > closeTimeout+time.Second {
			t.Errorf("RunStdio took %v to return", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunStdio did not return after ctx ended")
	}
	cs.Close()
}

func TestRunHTTPLoopbackOnly(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:8765", "[::]:0", "example.com:80"} {
		err := RunHTTP(t.Context(), &fakeCore{}, HTTPOptions{Addr: addr, Token: testToken, Ready: func(string) { t.Errorf("%s: listening", addr) }})
		if !errors.Is(err, ErrNotLoopback) || !strings.Contains(err.Error(), "127.0.0.1:PORT") {
			t.Errorf("RunHTTP(%q) = %v, want ErrNotLoopback with a hint", addr, err)
		}
	}
	if err := RunHTTP(t.Context(), &fakeCore{}, HTTPOptions{Addr: "nonsense", Token: testToken}); err == nil || !strings.Contains(err.Error(), "host:port") {
		t.Errorf("RunHTTP(nonsense) = %v", err)
	}
	for _, addr := range []string{"127.0.0.1:0", "127.0.0.2:0", "localhost:0", "[::1]:0"} {
		if err := checkLoopback(addr); err != nil {
			t.Errorf("checkLoopback(%q) = %v, want nil", addr, err)
		}
	}
}

// TestRunHTTP: the same tools over streamable HTTP, notes per MCP session,
// shutdown when ctx ends.
func TestRunHTTP(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	ctx, cancel := context.WithCancel(t.Context())
	addrs := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- RunHTTP(ctx, fc, HTTPOptions{Addr: "127.0.0.1:0", Token: testToken, Ready: func(a string) { addrs <- a }})
	}()
	var addr string
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatalf("RunHTTP: %v", err)
	}
	dial := func() *mcp.ClientSession {
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil)
		// A protocol with sessions (2026-07-28 has none: see
		// TestHTTPNotesSessionless).
		cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: tokenClient(testToken)},
			&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	a, b := dial(), dial()
	ok(t, a, toolBackground, map[string]any{"command": "make"})
	fc.end(0, model.Exit{Code: 2})
	for name, cs := range map[string]*mcp.ClientSession{"a": a, "b": b} {
		msg := fails(t, cs, toolKill, map[string]any{"id": 3})
		if !strings.Contains(msg, `job 0 exited 2`) {
			t.Errorf("session %s: no note in %q", name, msg)
		}
		if msg := fails(t, cs, toolKill, map[string]any{"id": 3}); strings.Contains(msg, "job 0") {
			t.Errorf("session %s: note repeated in %q", name, msg)
		}
	}
	a.Close()
	b.Close()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("RunHTTP after cancel = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunHTTP did not return after ctx ended")
	}
}

func TestExplainArguments(t *testing.T) {
	t.Parallel()
	s := statusInputSchema()
	cases := []struct{ args, want string }{
		{`{"id": 1, "lines": 10, "since": 0, "wait": 2.5, "until": "x"}`, ""}, // negative control: nothing wrong
		{`{"id": "web"}`, ""},
		{`[]`, "arguments must be a JSON object"},
		{`{"lines": 0}`, `"lines" must be a whole number from 1 to 2000, not 0`},
		{`{"wait": "5"}`, `"wait" must be a number from 0 to 600, not "5"`},
		{`{"id": {}}`, `"id" must be a whole number from 0 up or a non-empty string, not {}`},
		{`{"idd": 1, "zz": 2}`, `there is no argument "idd"; there is no argument "zz"`},
		{`{"until": "` + strings.Repeat("y", 200) + `", "x": 1}`, `there is no argument "x"`},
	}
	for _, c := range cases {
		if got := explainArguments(s, []byte(c.args)); got != c.want {
			t.Errorf("explainArguments(%s) = %q, want %q", c.args, got, c.want)
		}
	}
	if got := explainArguments(killInputSchema(), []byte(`{"grace": 1}`)); got != `"id" is missing` {
		t.Errorf("missing id: %q", got)
	}
	if got := shortValue([]byte(`"` + strings.Repeat("é", 100) + `"`)); len(got) > maxValueShown+4 || !strings.HasSuffix(got, "…") {
		t.Errorf("shortValue = %q", got)
	}
}

func TestNormalizeArguments(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		``:                           `{}`,
		`null`:                       `{}`,
		`{"a":null,"b":1}`:           `{"b":1}`,
		`{"a":1}`:                    `{"a":1}`,
		`[null]`:                     `[null]`,
		`"x"`:                        `"x"`,
		`{"a": null, "b": {"c": 1}}`: `{"b":{"c":1}}`,
	} {
		if got := string(normalizeArguments([]byte(in))); got != want {
			t.Errorf("normalizeArguments(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestRunStdioBadFrames: a line that is not a JSON-RPC message gets a
// JSON-RPC error and the session goes on (the SDK alone would end the
// session, and jobdeck with it).
func TestRunStdioBadFrames(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	rec := &recorder{}
	done := make(chan error, 1)
	go func() { done <- RunStdio(t.Context(), &fakeCore{}, inR, io.MultiWriter(rec, outW)) }()
	replies := bufio.NewReader(outR)
	send := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		b, err := replies.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("reply %q: %v", b, err)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")

	cases := []struct {
		name, line string
		code       float64
		id         any
	}{
		{"not JSON", "hello", -32700, nil},
		{"cut JSON", `{"jsonrpc":"2.0","id":5,"method":"tools/list"`, -32700, nil},
		{"not JSON-RPC", `{"foo":1}`, -32600, nil},
		{"wrong version", `{"jsonrpc":"1.0","id":3,"method":"tools/list"}`, -32600, 3.0},
		{"no method", `{"jsonrpc":"2.0","id":"a"}`, -32600, "a"},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, -32600, nil},
		{"scalar", `42`, -32600, nil},
		{"over 16 MiB", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"background","arguments":{"command":"` + strings.Repeat("x", stdio.MaxLine) + `"}}}`, -32600, nil},
	}
	for i, c := range cases {
		m := send(c.line)
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != c.code || m["id"] != c.id {
			t.Errorf("%s: reply %v, want error %v with id %v", c.name, m, c.code, c.id)
		}
		// The session goes on.
		m = send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"job_status","arguments":{}}}`, 100+i))
		if m["id"] != float64(100+i) || m["result"] == nil {
			t.Fatalf("%s: the next call got %v", c.name, m)
		}
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("RunStdio = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("RunStdio did not return at EOF")
	}
	checkJSONRPC(t, rec.bytes())
}

// TestJSONRPCCheck is the negative control of the stdout check: it does
// catch stray output.
func TestJSONRPCCheck(t *testing.T) {
	t.Parallel()
	good := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" + `{"jsonrpc":"2.0","method":"x"}` + "\n" + `{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m"}}` + "\n"
	if p := jsonrpcProblems([]byte(good)); len(p) != 0 {
		t.Errorf("clean stream: %v", p)
	}
	for _, bad := range []string{
		"starting jobdeck\n" + good,
		good + "log line\n",
		good + `{"id":3}` + "\n",
		good + `{"jsonrpc":"2.0","id":4,"result":{}}`,
		"",
	} {
		if len(jsonrpcProblems([]byte(bad))) == 0 {
			t.Errorf("stray output not caught: %q", bad)
		}
	}
}

// TestLocalOrigin: a browser request from another origin is refused,
// other local servers' (another port, https) included; one from the
// server's own origin by any loopback name, or a program's (no Origin),
// passes.
func TestLocalOrigin(t *testing.T) {
	t.Parallel()
	h := localOrigin(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) }), "8765")
	for origin, want := range map[string]int{
		"":                             http.StatusTeapot,
		"http://127.0.0.1:8765":        http.StatusTeapot,
		"http://localhost:8765":        http.StatusTeapot,
		"http://LOCALHOST:8765":        http.StatusTeapot,
		"http://[::1]:8765":            http.StatusTeapot,
		"http://127.0.0.2:8765":        http.StatusTeapot,
		"http://localhost:3000":        http.StatusForbidden,
		"http://127.0.0.1:18765":       http.StatusForbidden,
		"http://127.0.0.1":             http.StatusForbidden,
		"https://127.0.0.1:8765":       http.StatusForbidden,
		"http://[::1]:1":               http.StatusForbidden,
		"http://evil.example":          http.StatusForbidden,
		"http://evil.example:8765":     http.StatusForbidden,
		"http://127.0.0.1.nip.io:8765": http.StatusForbidden,
		"null":                         http.StatusForbidden,
	} {
		r := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != want {
			t.Errorf("Origin %q: status %d, want %d", origin, rec.Code, want)
		}
	}
}
