package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Raw lines a client sends in these tests.
const (
	lineInitialize  = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	lineInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// linePing is a ping with the given id (JSON).
func linePing(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`
}

// nested is a message whose params nest depth levels deep in all.
func nested(depth int) string {
	inner := depth - 2 // the message and params objects
	return `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":` + strings.Repeat("[", inner) + strings.Repeat("]", inner) + `}}`
}

// rawSession is a session of RunStdio over pipes, spoken line by line.
type rawSession struct {
	t       *testing.T
	in      *io.PipeWriter
	replies chan []byte
	done    chan error
	rec     *recorder
}

// startRaw runs RunStdio over core on pipes, already initialized.
func startRaw(t *testing.T, core Core) *rawSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &rawSession{t: t, in: inW, replies: make(chan []byte, 16), done: make(chan error, 1), rec: &recorder{}}
	go func() {
		r.done <- RunStdio(t.Context(), core, inR, io.MultiWriter(r.rec, outW))
		outW.Close()
	}()
	go func() {
		br := bufio.NewReaderSize(outR, 1<<20)
		for {
			b, err := br.ReadBytes('\n')
			if err != nil {
				close(r.replies)
				return
			}
			r.replies <- b
		}
	}()
	t.Cleanup(func() { inW.Close() })
	r.send(lineInitialize)
	r.reply()
	r.send(lineInitialized)
	return r
}

func (r *rawSession) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatalf("send: %v", err)
	}
}

// reply is the next line written, decoded (an array for a batch's answer).
func (r *rawSession) reply() any {
	r.t.Helper()
	select {
	case b, ok := <-r.replies:
		if !ok {
			r.t.Fatal("the session ended: no more replies")
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			r.t.Fatalf("reply %q: %v", b, err)
		}
		return v
	case <-time.After(10 * time.Second):
		r.t.Fatal("no reply within 10 s")
	}
	return nil
}

// pingAnswered sends a ping and checks that its answer comes.
func (r *rawSession) pingAnswered(id int) {
	r.t.Helper()
	r.send(linePing(fmt.Sprint(id)))
	m, _ := r.reply().(map[string]any)
	if m["id"] != float64(id) || m["result"] == nil {
		r.t.Fatalf("ping %d got %v", id, m)
	}
}

// hostileLine is a line that ended the SDK's stdio session (and jobdeck
// with it) or that it would silently misread; it must get an error with
// code and id (nil: null).
type hostileLine struct {
	name, line string
	code       float64
	id         any
	endsSDK    bool // the bare SDK's session ends on it (the negative control)
}

// hostileLines are the lines TestHostileLines sends (made on demand: one
// is 16 MiB).
func hostileLines() []hostileLine {
	return []hostileLine{
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, 1.0, true},
		{"depth 1001", nested(1001), -32600, nil, true},
		{"depth 5000", nested(5000), -32600, nil, true},
		{"depth 9999", nested(9999), -32600, nil, true},
		{"depth 10001", nested(10001), -32600, nil, true},
		{"depth 100000", nested(100000), -32600, nil, true},
		{"JSONRPC in capitals", `{"JSONRPC":"2.0","id":1,"method":"ping"}`, -32600, 1.0, true},
		{"Method in capitals", `{"jsonrpc":"2.0","id":2,"Method":"ping"}`, -32600, 2.0, false},
		{"ID in capitals", `{"jsonrpc":"2.0","ID":3,"method":"ping"}`, -32600, nil, false},
		{"unknown member", `{"jsonrpc":"2.0","id":4,"method":"ping","extra":true}`, -32600, 4.0, false},
		{"escaped member name", `{"jsonrpc":"2.0","\u0069d":5,"method":"ping"}`, -32600, nil, false},
		{"duplicate member", `{"jsonrpc":"2.0","id":6,"id":{},"method":"ping"}`, -32600, nil, true},
		{"response without id", `{"jsonrpc":"2.0","result":{}}`, -32600, nil, true},
		{"error not an object", `{"jsonrpc":"2.0","id":8,"error":5}`, -32600, 8.0, true},
		{"error without code", `{"jsonrpc":"2.0","id":9,"error":{"message":"x"}}`, -32600, 9.0, false},
		{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, -32600, nil, true},
		{"id 1.5", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, nil, false},
		{"id over 2^53", `{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}`, -32600, nil, false},
		{"id null call", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, nil, false},
		{"method not a string", `{"jsonrpc":"2.0","id":10,"method":5}`, -32600, 10.0, true},
		{"params a string", `{"jsonrpc":"2.0","id":11,"method":"tools/list","params":"x"}`, -32600, 11.0, false},
		{"result and error", `{"jsonrpc":"2.0","id":12,"result":{},"error":{"code":1,"message":"m"}}`, -32600, 12.0, false},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ping\",\"params\":{\"x\":\"\xff\"}}", -32700, nil, false},
		{"empty batch", `[]`, -32600, nil, true},
		{"not JSON", `hello`, -32700, nil, true},
		{"vertical tab before", "\v" + linePing("17"), -32700, nil, true},
		{"two values", `{"jsonrpc":"2.0","id":14,"method":"ping"} {}`, -32700, nil, true},
		{"scalar", `42`, -32600, nil, true},
		{"wrong version", `{"jsonrpc":"1.0","id":15,"method":"ping"}`, -32600, 15.0, true},
		{"over 16 MiB", `{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"background","arguments":{"command":"` + strings.Repeat("x", maxFrame) + `"}}}`, -32600, nil, false},
	}
}

// TestHostileLines: each line gets a JSON-RPC error and the session goes
// on answering pings.
func TestHostileLines(t *testing.T) {
	t.Parallel()
	r := startRaw(t, &fakeCore{})
	for i, c := range hostileLines() {
		r.send(c.line)
		v := r.reply()
		if arr, ok := v.([]any); ok && len(arr) == 1 {
			v = arr[0] // a batch's answer
		}
		m, _ := v.(map[string]any)
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != c.code || m["id"] != c.id {
			t.Errorf("%s: reply %v, want error %v with id %v", c.name, m, c.code, c.id)
		}
		r.pingAnswered(100 + i)
	}
	r.in.Close()
	waitDone(t, r.done)
	checkJSONRPC(t, r.rec.bytes())
}

// TestBatchRefusedPerElement: a batch gets an array with one error per
// element, each with the element's id where it has one.
func TestBatchRefusedPerElement(t *testing.T) {
	t.Parallel()
	r := startRaw(t, &fakeCore{})
	r.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"}, {"jsonrpc":"2.0","method":"notifications/x"}, {"jsonrpc":"2.0","id":"b","method":"tools/list"}, 7]`)
	arr, _ := r.reply().([]any)
	var ids []any
	for _, el := range arr {
		m, _ := el.(map[string]any)
		if e, _ := m["error"].(map[string]any); e == nil || e["code"] != -32600.0 {
			t.Errorf("batch element answer %v, want error -32600", el)
		}
		ids = append(ids, m["id"])
	}
	if fmt.Sprint(ids) != "[1 <nil> b <nil>]" {
		t.Errorf("batch answer ids %v, want [1 <nil> b <nil>]", ids)
	}
	r.pingAnswered(2)
}

// TestIDInUse: a call reusing the id of a call still running is refused
// (with a null id, so that it is not taken for the first call's answer),
// and the first call is still answered.
func TestIDInUse(t *testing.T) {
	t.Parallel()
	r := startRaw(t, &fakeCore{blockWait: true})
	r.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"background","arguments":{"command":"x"}}}`)
	r.reply()
	r.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"job_status","arguments":{"id":0,"wait":1}}}`)
	r.send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	m, _ := r.reply().(map[string]any)
	if e, _ := m["error"].(map[string]any); e == nil || m["id"] != nil {
		t.Errorf("reused id: got %v, want an error with id null", m)
	}
	m, _ = r.reply().(map[string]any)
	if m["id"] != 2.0 || m["result"] == nil {
		t.Errorf("the waiting call got %v", m)
	}
	r.pingAnswered(2) // free again
}

// TestHostileLinesEndBareSDK is the negative control: without the filter,
// the SDK's session ends on these lines (which is what TestHostileLines
// would catch if the filter let them through).
func TestHostileLinesEndBareSDK(t *testing.T) {
	t.Parallel()
	for _, c := range hostileLines() {
		if !c.endsSDK {
			continue
		}
		s := newServer(&fakeCore{}, options{})
		input := lineInitialize + "\n" + lineInitialized + "\n" + c.line + "\n" + linePing(`"after"`) + "\n"
		var out recorder
		ss, err := s.mcp.Connect(t.Context(), &mcp.IOTransport{Reader: io.NopCloser(strings.NewReader(input)), Writer: nopWriteCloser{&out}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-waitChan(ss.Wait):
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the bare SDK's session neither ended nor answered", c.name)
		}
		if bytes.Contains(out.bytes(), []byte(`"id":"after","result"`)) {
			t.Errorf("%s: the bare SDK answered the ping after it; this line no longer shows the hazard", c.name)
		}
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// waitChan runs f in a goroutine and delivers its result.
func waitChan(f func() error) <-chan error {
	c := make(chan error, 1)
	go func() { c <- f() }()
	return c
}

// waitDone waits for a session's end and checks it was clean.
func waitDone(t *testing.T, done <-chan error) {
	t.Helper()
	select {
	case err := <-done:
		if err != nil && err != io.EOF {
			t.Errorf("session ended with %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the session did not end")
	}
}

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

// TestEOFAnswersPending: requests still running at EOF are answered
// before RunStdio returns.
func TestEOFAnswersPending(t *testing.T) {
	t.Parallel()
	input := eofInput()
	for run := range 5 {
		var out recorder
		err := RunStdio(t.Context(), &fakeCore{blockWait: true}, strings.NewReader(input), &out)
		if err != nil {
			t.Fatalf("run %d: RunStdio = %v", run, err)
		}
		if got := answered(out.bytes(), "1", "2", "3"); got != 3 {
			t.Fatalf("run %d: %d of 3 requests answered:\n%s", run, got, out.bytes())
		}
		checkJSONRPC(t, out.bytes())
	}
}

// TestEOFDropsAnswersBareSDK is the negative control of
// TestEOFAnswersPending: the bare SDK drops the answers of requests
// still running at EOF.
func TestEOFDropsAnswersBareSDK(t *testing.T) {
	t.Parallel()
	s := newServer(&fakeCore{blockWait: true}, options{})
	var out recorder
	ss, err := s.mcp.Connect(t.Context(), &mcp.IOTransport{Reader: io.NopCloser(strings.NewReader(eofInput())), Writer: nopWriteCloser{&out}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-waitChan(ss.Wait):
	case <-time.After(20 * time.Second):
		t.Fatal("the bare SDK's session did not end at EOF")
	}
	if got := answered(out.bytes(), "1", "2", "3"); got == 3 {
		t.Errorf("the bare SDK answered all 3 requests at EOF; the test no longer shows the hazard")
	}
}

// eofInput is an initialize and three requests that take a moment (a
// start, a wait of 300 ms, a kill), then EOF.
func eofInput() string {
	return strings.Join([]string{
		lineInitialize, lineInitialized,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"background","arguments":{"command":"x"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"job_status","arguments":{"id":0,"wait":0.3}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"job_kill","arguments":{"id":0}}}`,
	}, "\n") + "\n"
}

// answered counts the ids (JSON) that have a result in out.
func answered(out []byte, ids ...string) int {
	n := 0
	for _, id := range ids {
		if bytes.Contains(out, []byte(`"id":`+id+`,"result"`)) {
			n++
		}
	}
	return n
}

// TestPipedInitialize: an initialize alone, then EOF, is always answered.
func TestPipedInitialize(t *testing.T) {
	t.Parallel()
	for run := range 50 {
		var out recorder
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		err := RunStdio(ctx, &fakeCore{}, strings.NewReader(lineInitialize+"\n"), &out)
		cancel()
		if err != nil || !bytes.Contains(out.bytes(), []byte(`"id":"init","result"`)) {
			t.Fatalf("run %d: RunStdio = %v, output %q", run, err, out.bytes())
		}
	}
}
