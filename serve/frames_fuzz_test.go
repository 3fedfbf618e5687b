package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzLineFilter feeds one arbitrary input (one or more lines) to a real
// stdio session between an initialize and a ping, and checks that:
//   - the session answers the ping after it and ends cleanly at EOF;
//   - everything written is JSON-RPC 2.0, one message (or one batch
//     answer) per line;
//   - every line the filter lets through is one the SDK decodes, with
//     the stream reader it uses and with its message decoder.
//
// Run it with `go test ./serve -run '^$' -fuzz FuzzLineFilter`; the seed
// corpus is testdata/fuzz/FuzzLineFilter plus the lines below.
func FuzzLineFilter(f *testing.F) {
	for _, c := range hostileLines() {
		if len(c.line) < 64<<10 {
			f.Add([]byte(c.line))
		}
	}
	for _, s := range []string{
		linePing("1"),
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
		for line := range bytes.Lines(input) {
			checkPassedDecodes(t, line)
		}
		var out recorder
		in := lineInitialize + "\n" + lineInitialized + "\n" + string(input) + "\n" + linePing(`"fuzz-after"`) + "\n"
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

// checkPassedDecodes: if the filter passes line, the SDK can decode it.
func checkPassedDecodes(t *testing.T, line []byte) {
	t.Helper()
	line = bytes.TrimRight(line, "\r\n")
	if len(trimJSON(line)) == 0 {
		return
	}
	_, ferr, _, _ := checkFrame(line)
	if ferr != nil {
		return
	}
	t2 := trimJSON(line)
	// The SDK's stream reader (encoding/json) reads one value per line.
	dec := json.NewDecoder(bytes.NewReader(append(bytes.Clone(t2), '\n')))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		t.Fatalf("passed %q, but the SDK's reader fails: %v", line, err)
	}
	if _, err := jsonrpc.DecodeMessage(raw); err != nil {
		t.Fatalf("passed %q, but the SDK's decoder fails: %v", line, err)
	}
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
		if p := messageProblem(m); p != "" {
			t.Fatalf("output line %s: %q", p, line)
		}
	}
}

// FuzzFrameCheck is the fast half of FuzzLineFilter: no session, just the
// check against the SDK's decoders and encoding/json, so that it runs
// orders of magnitude more inputs. It checks that the scanner agrees with
// encoding/json on what is JSON (within the depth limit, in valid UTF-8),
// that what passes decodes in the SDK, and that every refusal is a valid
// JSON-RPC error.
//
//	go test ./serve -run '^$' -fuzz FuzzFrameCheck
func FuzzFrameCheck(f *testing.F) {
	for _, c := range hostileLines() {
		if len(c.line) < 64<<10 {
			f.Add([]byte(c.line))
		}
	}
	f.Add([]byte(lineInitialize))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"a\u0000b","result":[1,-0.5e+7,"\ud800",null,true,false,{}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.ContainsAny(line, "\n") {
			return // the filter splits lines first
		}
		sc := scanner{b: trimJSON(line)}
		ferr := sc.document()
		deep := bytes.Count(line, []byte("["))+bytes.Count(line, []byte("{")) > maxDepth
		if valid := json.Valid(line) && utf8.Valid(line); (ferr == nil) != valid && !(valid && deep) {
			t.Fatalf("scanner says %v, encoding/json valid=%v, for %q", ferr, valid, line)
		}
		checkPassedDecodes(t, line)
		_, cerr, id, ids := checkFrame(line)
		if cerr == nil {
			return
		}
		reply := errorReply(id, cerr)
		if p := messageProblem(reply); p != "" {
			t.Fatalf("reply %q %s", reply, p)
		}
		for _, id := range ids {
			if p := messageProblem(errorReply(id, cerr)); p != "" {
				t.Fatalf("batch reply %s", p)
			}
		}
	})
}
