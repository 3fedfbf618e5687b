package stdio

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// TestResponseKey: the answers the SDK writes are recognised, other
// messages are not.
func TestResponseKey(t *testing.T) {
	t.Parallel()
	for line, want := range map[string]string{
		`{"jsonrpc":"2.0","id":3,"result":{}}` + "\n":                       "n3",
		`{"jsonrpc":"2.0","id":"a\"b","error":{"code":1,"message":"m"}}`:    `sa"b`,
		`{"jsonrpc":"2.0","id":-0,"result":{"x":[1,2,{"y":"}"}]}}`:          "n0",
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`:                          "",
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`:   "",
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}`: "",
		`{"jsonrpc":"2.0","id":3,"result":{`:                                "n3",
		`[{"jsonrpc":"2.0","id":3,"result":{}}]`:                            "",
		``:                                                                  "",
	} {
		got, _ := responseKey([]byte(line))
		if got != want {
			t.Errorf("responseKey(%q) = %q, want %q", line, got, want)
		}
	}
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

// FuzzFrameCheck is the fast half of serve's FuzzLineFilter: no session, just the
// check against the SDK's decoders and encoding/json, so that it runs
// orders of magnitude more inputs. It checks that the scanner agrees with
// encoding/json on what is JSON (within the depth limit, in valid UTF-8),
// that what passes decodes in the SDK, and that every refusal is a valid
// JSON-RPC error.
//
//	go test ./serve/stdio -run '^$' -fuzz FuzzFrameCheck
func FuzzFrameCheck(f *testing.F) {
	for _, c := range testkit.HostileLines() {
		if len(c.Line) < 64<<10 {
			f.Add([]byte(c.Line))
		}
	}
	f.Add([]byte(testkit.LineInitialize))
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
		if p := testkit.MessageProblem(reply); p != "" {
			t.Fatalf("reply %q %s", reply, p)
		}
		for _, id := range ids {
			if p := testkit.MessageProblem(errorReply(id, cerr)); p != "" {
				t.Fatalf("batch reply %s", p)
			}
		}
	})
}
