package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// FuzzLineFilter feeds one arbitrary input (one or more lines) to a real
// stdio session between an initialize and a ping, and checks that:
//   - the session answers the ping after it and ends cleanly at EOF;
//   - everything written is JSON-RPC 2.0, one message (or one batch
//     answer) per line.
//
// That every line the filter lets through is one the SDK decodes is
// FuzzFrameCheck's, in serve/stdio.
//
// Run it with `go test ./serve -run '^$' -fuzz FuzzLineFilter`; the seed
// corpus is testdata/fuzz/FuzzLineFilter plus the lines below.
func FuzzLineFilter(f *testing.F) {
	for _, c := range testkit.HostileLines() {
		if len(c.Line) < 64<<10 {
			f.Add([]byte(c.Line))
		}
	}
	for _, s := range []string{
		testkit.LinePing("1"),
		`{"jsonrpc":"2.0","id":"x","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"background","arguments":{"command":"make","name":"web"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"job_status","arguments":{"id":"web","wait":1,"until":"re(ady"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"job_kill","arguments":{"id":0,"grace":1e400}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}`,
		`{"jsonrpc":"2.0","id":5,"result":{"x":"\ud800"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"2026-07-28"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"logging/setLevel","params":{"level":"nope"}}`,
		"\r\n \t",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		var out recorder
		in := testkit.LineInitialize + "\n" + testkit.LineInitialized + "\n" + string(input) + "\n" + testkit.LinePing(`"fuzz-after"`) + "\n"
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		s := newServer(&fakeCore{}, options{life: ctx})
		if err := s.serveLines(ctx, cancel, strings.NewReader(in), &out); err != nil {
			t.Fatalf("session ended with %v", err)
		}
		got := out.bytes()
		if !bytes.Contains(got, []byte(`"id":"fuzz-after","result"`)) {
			t.Fatalf("the ping after the input was not answered; output:\n%s", tail(got))
		}
		for line := range bytes.Lines(got) {
			checkOutputLine(t, line)
		}
	})
}

// checkOutputLine: a line written is a JSON-RPC message or a batch
// answer.
func checkOutputLine(t *testing.T, line []byte) {
	t.Helper()
	line = bytes.TrimRight(line, "\n")
	msgs := []json.RawMessage{line}
	if len(line) > 0 && line[0] == '[' {
		if err := json.Unmarshal(line, &msgs); err != nil || len(msgs) == 0 {
			t.Fatalf("output line is not a batch answer: %q", line)
		}
	}
	for _, m := range msgs {
		if p := testkit.MessageProblem(m); p != "" {
			t.Fatalf("output line %s: %q", p, line)
		}
	}
}
