package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// recorder keeps every byte a process wrote to its stdout.
type recorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

func (r *recorder) bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.buf.Bytes())
}

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
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			Method  string          `json:"method"`
			Result  json.RawMessage `json:"result"`
			Error   json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			problems = append(problems, fmt.Sprintf("stdout line %d is not JSON (%v): %q", n, err, line))
			continue
		}
		if msg.JSONRPC != "2.0" || (msg.Method == "" && msg.Result == nil && msg.Error == nil) {
			problems = append(problems, fmt.Sprintf("stdout line %d is not a JSON-RPC 2.0 message: %q", n, line))
		}
		if bytes.ContainsAny(line, "\x1b\r") {
			problems = append(problems, fmt.Sprintf("stdout line %d has raw control bytes: %q", n, line))
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
