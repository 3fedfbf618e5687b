package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// recorder keeps every byte a process wrote to its stdout.
type recorder struct{ testkit.Buffer }

// bytes returns a copy of what was written so far.
func (r *recorder) bytes() []byte { return r.Bytes() }

// checkJSONRPC asserts that out is newline-delimited JSON-RPC 2.0 messages
// and nothing else.
func checkJSONRPC(t *testing.T, out []byte) {
	t.Helper()
	for _, p := range jsonrpcProblems(out) {
		t.Error(p)
	}
}

// jsonrpcProblems lists what in out is not newline-delimited JSON-RPC 2.0.
func jsonrpcProblems(out []byte) []string {
	if len(out) == 0 {
		return []string{"stdout carried nothing"}
	}
	var problems []string
	if out[len(out)-1] != '\n' {
		problems = append(problems, fmt.Sprintf("stdout does not end with a newline: %q", tail(out)))
	}
	n := 0
	for line := range bytes.Lines(out) {
		n++
		line = bytes.TrimRight(line, "\n")
		if bytes.ContainsAny(line, "\x1b\r") {
			problems = append(problems, fmt.Sprintf("stdout line %d has raw control bytes: %q", n, line))
		}
		// A batch's answer is an array of messages on one line.
		msgs := []json.RawMessage{line}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] == '[' {
			if err := json.Unmarshal(t, &msgs); err != nil || len(msgs) == 0 {
				problems = append(problems, fmt.Sprintf("stdout line %d is not a batch of messages: %q", n, line))
				continue
			}
		}
		for _, m := range msgs {
			if p := testkit.MessageProblem(m); p != "" {
				problems = append(problems, fmt.Sprintf("stdout line %d %s: %q", n, p, line))
			}
		}
	}
	if n < 3 {
		problems = append(problems, fmt.Sprintf("stdout had only %d messages", n))
	}
	return problems
}

func tail(b []byte) []byte {
	if len(b) > 200 {
		return b[len(b)-200:]
	}
	return b
}

// connect serves core in memory, with typed results (the tests read
// their structured content), and returns a connected client session.
func connect(t *testing.T, core Core, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return connectServer(t, newServer(core, options{progressEvery: 20 * time.Millisecond, now: func() time.Time { return t0.Add(2 * time.Second) }, structured: true}), copts)
}

// connectText is connect with the default results: text alone.
func connectText(t *testing.T, core Core) *mcp.ClientSession {
	t.Helper()
	return connectServer(t, newServer(core, options{progressEvery: 20 * time.Millisecond, now: func() time.Time { return t0.Add(2 * time.Second) }}), nil)
}

func connectServer(t *testing.T, s *server, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.mcp.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, copts)
	cs, err := client.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error (want a result): %v", name, args, err)
	}
	checkPlain(t, res)
	return res
}

// ok calls a tool and fails the test on any error.
func ok(t *testing.T, cs *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, string) {
	t.Helper()
	res := call(t, cs, name, args)
	text := textOf(res)
	if res.IsError {
		t.Fatalf("%s %v: tool error: %s", name, args, text)
	}
	return res, text
}

// fails calls a tool and returns the tool error's text; it fails the test
// unless the call was a tool error.
func fails(t *testing.T, cs *mcp.ClientSession, name string, args any) string {
	t.Helper()
	res := call(t, cs, name, args)
	text := textOf(res)
	if !res.IsError {
		t.Fatalf("%s %v: want a tool error, got result %q", name, args, text)
	}
	if res.StructuredContent != nil {
		t.Errorf("%s: error result has structured content %v", name, res.StructuredContent)
	}
	return text
}

func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// structured decodes a result's structured content into v.
func structured(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
}

// checkPlain asserts that every string of the result (text and structured)
// is valid UTF-8 without escape or control bytes other than \n and \t.
func checkPlain(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	if !plainOK(textOf(res)) {
		t.Errorf("text is not plain: %q", textOf(res))
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if !plainOK(v) {
				t.Errorf("structured string is not plain: %q", v)
			}
		case map[string]any:
			for k, x := range v {
				walk(k)
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(res.StructuredContent)
}

func plainOK(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return false
		}
	}
	return true
}

// waitFor is testkit.WaitFor for a condition that needs no name.
func waitFor(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	testkit.WaitFor(t, d, "the condition", cond)
}

// hasLinePrefix reports whether a line of text starts with prefix.
func hasLinePrefix(text, prefix string) bool {
	return strings.HasPrefix(text, prefix) || strings.Contains(text, "\n"+prefix)
}

// checkResultBudget asserts that a result's text and its structured
// content (as JSON) each fit budget, and returns the JSON.
func checkResultBudget(t *testing.T, what string, res *mcp.CallToolResult, budget int) []byte {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(textOf(res)); n > budget {
		t.Errorf("%s: text is %d bytes, over the %d budget", what, n, budget)
	}
	if len(b) > budget {
		t.Errorf("%s: structured content is %d bytes, over the %d budget: %.300s", what, len(b), budget, b)
	}
	return b
}
