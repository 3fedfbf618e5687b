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

	"github.com/jobdeck/jobdeck/internal/testkit"
)

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
	r.send(testkit.LineInitialize)
	r.reply()
	r.send(testkit.LineInitialized)
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
	r.send(testkit.LinePing(fmt.Sprint(id)))
	m, _ := r.reply().(map[string]any)
	if m["id"] != float64(id) || m["result"] == nil {
		r.t.Fatalf("ping %d got %v", id, m)
	}
}

// TestHostileLines: each line gets a JSON-RPC error and the session goes
// on answering pings.
func TestHostileLines(t *testing.T) {
	t.Parallel()
	r := startRaw(t, &fakeCore{})
	for i, c := range testkit.HostileLines() {
		r.send(c.Line)
		v := r.reply()
		if arr, ok := v.([]any); ok && len(arr) == 1 {
			v = arr[0] // a batch's answer
		}
		m, _ := v.(map[string]any)
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != c.Code || m["id"] != c.ID {
			t.Errorf("%s: reply %v, want error %v with id %v", c.Name, m, c.Code, c.ID)
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
	for _, c := range testkit.HostileLines() {
		if !c.EndsSDK {
			continue
		}
		s := newServer(&fakeCore{}, options{})
		input := testkit.LineInitialize + "\n" + testkit.LineInitialized + "\n" + c.Line + "\n" + testkit.LinePing(`"after"`) + "\n"
		var out recorder
		ss, err := s.mcp.Connect(t.Context(), &mcp.IOTransport{Reader: io.NopCloser(strings.NewReader(input)), Writer: nopWriteCloser{&out}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-waitChan(ss.Wait):
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the bare SDK's session neither ended nor answered", c.Name)
		}
		if bytes.Contains(out.bytes(), []byte(`"id":"after","result"`)) {
			t.Errorf("%s: the bare SDK answered the ping after it; this line no longer shows the hazard", c.Name)
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
		testkit.LineInitialize, testkit.LineInitialized,
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
		err := RunStdio(ctx, &fakeCore{}, strings.NewReader(testkit.LineInitialize+"\n"), &out)
		cancel()
		if err != nil || !bytes.Contains(out.bytes(), []byte(`"id":"init","result"`)) {
			t.Fatalf("run %d: RunStdio = %v, output %q", run, err, out.bytes())
		}
	}
}
