package serve

import (
	"bytes"
	"encoding/json"
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
	if len(out) == 0 {
		t.Fatal("stdout carried nothing")
	}
	if out[len(out)-1] != '\n' {
		t.Errorf("stdout does not end with a newline: %q", tail(out))
	}
	n := 0
	for line := range bytes.Lines(out) {
		line = bytes.TrimRight(line, "\n")
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Method  string          `json:"method"`
			Result  json.RawMessage `json:"result"`
			Error   json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			t.Errorf("stdout line %d is not JSON (%v): %q", n+1, err, line)
			continue
		}
		if msg.JSONRPC != "2.0" || (msg.Method == "" && msg.Result == nil && msg.Error == nil) {
			t.Errorf("stdout line %d is not a JSON-RPC 2.0 message: %q", n+1, line)
		}
		if bytes.ContainsAny(line, "\x1b\r") {
			t.Errorf("stdout line %d has raw control bytes: %q", n+1, line)
		}
		n++
	}
	if n < 3 {
		t.Errorf("stdout had only %d messages", n)
	}
}

func tail(b []byte) []byte {
	if len(b) > 200 {
		return b[len(b)-200:]
	}
	return b
}
