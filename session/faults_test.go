//go:build unix

package session

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawConsole connects to the session of w as a console by hand (hello and
// welcome), for tests that misbehave on purpose.
func rawConsole(t *testing.T, w *world) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("unix", filepath.Join(w.sdir, Target{Worktree: w.wt}.Key()+".sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	params, _ := json.Marshal(Hello{Protocol: Protocol, Kind: KindConsole, Name: "raw", Dir: []byte(w.wt)})
	if err := writeMessage(c, &jsonrpc.Request{ID: mustID(1), Method: helloMethod, Params: params}); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := r.ReadString('\n'); err != nil {
		t.Fatalf("welcome: %v", err)
	}
	return c, r
}

// A garbage line on a console connection gets a JSON-RPC error; the
// connection, the session and every other client go on.
func TestGarbageLines(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, _ := w.agent("agent", "--linger", "1s")
	w.call(a, "background", map[string]any{"command": w.job("echo up; sleep 300")}, false)
	c, r := rawConsole(t, w)
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	for _, line := range []string{
		"not json at all",
		`[{"jsonrpc":"2.0","id":7,"method":"jobs/list"}]`,
		deep,
		`{"JSONRPC":"2.0","id":8,"method":"jobs/list"}`,
		`{"jsonrpc":"2.0","id":9,"method":"jobs/list","extra":1}`,
	} {
		if _, err := c.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		reply, err := readReply(r)
		if err != nil {
			t.Fatalf("after %.40q: %v", line, err)
		}
		if !strings.Contains(reply, `"error"`) {
			t.Fatalf("%.40q was answered without an error: %s", line, reply)
		}
	}
	// The same connection still serves a good request.
	if _, err := c.Write([]byte(`{"jsonrpc":"2.0","id":10,"method":"jobs/list","params":{}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	reply, err := readReply(r)
	if err != nil || !strings.Contains(reply, `"result"`) || !strings.Contains(reply, "sleep 300") {
		t.Fatalf("a good request after the garbage: %v %.200s", err, reply)
	}
	w.call(a, "job_status", map[string]any{"id": 0}, false)
}

// readReply reads lines until one is a response (skipping notifications).
func readReply(r *bufio.Reader) (string, error) {
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return "", err
		}
		if !strings.Contains(line, `"method"`) {
			return line, nil
		}
	}
}

// A console that never reads while a job floods cannot slow the core,
// the job or another client: the flood runs at full speed, another
// agent's calls answer at once, and the session's memory stays bounded.
func TestStalledConsole(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, _ := w.agent("agent", "--linger", "1s", "--grace", "1s")
	w.call(a, "job_status", map[string]any{}, false)
	c, _ := rawConsole(t, w) // subscribed; never read from again
	pid := w.sessionPID()
	before := rssKiB(t, pid)
	// Many short jobs make many state events (never folded away on the
	// core's side), and a flood makes output events.
	w.call(a, "background", map[string]any{"command": w.job("yes flood | head -c 200M"), "tty": false}, false)
	// And it asks for whole rings it never reads: the session's answers
	// fill the socket, then its in-flight calls, and only it waits.
	go func() {
		for i := range 200 {
			req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"jobs/read","params":{"id":0,"req":{"Limit":2000}}}`+"\n", 100+i)
			if _, err := c.Write([]byte(req)); err != nil {
				return
			}
		}
	}()
	for i := range 20 {
		w.call(a, "background", map[string]any{"command": w.job(fmt.Sprintf("echo %d", i))}, false)
	}
	start := time.Now()
	rep := w.call(a, "job_status", map[string]any{"id": 0, "wait": 60}, false)
	if !strings.Contains(rep, "exited 0") {
		t.Fatalf("the flood did not end while a console stalled:\n%.500s", rep)
	}
	t.Logf("200 MB flood with a stalled console: done %v after the last start", time.Since(start).Round(time.Millisecond))
	for range 20 {
		callStart := time.Now()
		w.call(a, "job_status", map[string]any{}, false)
		if d := time.Since(callStart); d > 2*time.Second {
			t.Errorf("a list call took %v with a stalled console", d)
		}
	}
	after := rssKiB(t, pid)
	t.Logf("session RSS %d KiB before, %d KiB after", before, after)
	if after > before+64<<10 {
		t.Errorf("the session grew from %d to %d KiB while a console stalled", before, after)
	}
}

// rssKiB is a process's resident set size.
func rssKiB(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

// An agent that sends requests and never reads its stdout cannot make the
// session grow without bound or slow another client: the session reads
// its next line only when fewer than 16 of its calls are unanswered.
func TestAgentNeverReads(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, _ := w.agent("agent", "--linger", "1s", "--grace", "1s")
	w.call(a, "background", map[string]any{"command": w.job("yes 'all work and no play makes jack a dull boy' | nl"), "name": "flood", "tty": false}, false)
	pid := w.sessionPID()
	before := rssKiB(t, pid)
	stuck := w.cmd("--serve")
	in, err := stuck.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stuck.StdoutPipe(); err != nil { // never read
		t.Fatal(err)
	}
	if err := stuck.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stuck.Process.Kill(); _ = stuck.Wait() }()
	go func() {
		fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stuck","version":"1"}}}`)
		fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		for i := range 400 {
			if _, err := fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"job_status","arguments":{"id":"flood","lines":2000,"max_bytes":262144}}}`+"\n", 10+i); err != nil {
				return
			}
		}
	}()
	time.Sleep(3 * time.Second) // let it push as much as it can (not an assertion: the bounds below are)
	for range 5 {
		start := time.Now()
		w.call(a, "job_status", map[string]any{}, false)
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("another agent's call took %v while one never read", d)
		}
	}
	after := rssKiB(t, pid)
	t.Logf("session RSS %d KiB before, %d KiB after an agent sent 400 big requests it never read", before, after)
	if after > before+96<<10 {
		t.Errorf("the session grew from %d to %d KiB", before, after)
	}
}

// A hello of no known kind, and a console's read with a cursor of
// 2^64-1, are refused: the session and its jobs go on (both ended the
// session once).
func TestBadHelloAndCursor(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, _ := w.agent("agent", "--linger", "1s")
	w.call(a, "background", map[string]any{"command": w.job("echo up; sleep 300")}, false)
	pid := w.sessionPID()
	sock := filepath.Join(w.sdir, Target{Worktree: w.wt}.Key()+".sock")
	for _, hello := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"jobdeck/hello","params":{"protocol":3}}`,
		`{"jsonrpc":"2.0","id":1,"method":"jobdeck/hello","params":{"protocol":3,"kind":"bogus"}}`,
	} {
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintln(c, hello)
		reply, _ := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if !strings.Contains(reply, "unknown client kind") {
			t.Errorf("hello %s: %q", hello, reply)
		}
	}
	c, r := rawConsole(t, w)
	fmt.Fprintln(c, `{"jsonrpc":"2.0","id":100,"method":"jobs/read","params":{"id":0,"req":{"After":18446744073709551615}}}`)
	if reply, err := readReply(r); err != nil || !strings.Contains(reply, `"error"`) {
		t.Errorf("a read after 2^64-1: %v %s", err, reply)
	}
	if w.sessionPID() != pid {
		t.Fatal("the session died")
	}
	if out := w.call(a, "job_status", map[string]any{"id": 0}, false); !strings.Contains(out, "running") {
		t.Fatalf("the job did not survive:\n%s", out)
	}
}

// An agent killed while its call waits has left at once: the session
// lists it no more and lingers, instead of keeping it attached until the
// wait ends.
func TestAgentKilledWhileWaiting(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, ca := w.agent("waiter", "--linger", "1s", "--grace", "1s")
	w.call(a, "background", map[string]any{"command": w.job("sleep 300")}, false)
	go func() {
		_, _ = a.CallTool(context.Background(), &mcp.CallToolParams{Name: "job_status", Arguments: map[string]any{"id": 0, "wait": 120}})
	}()
	time.Sleep(500 * time.Millisecond) // the call is on its way (not an assertion)
	_ = ca.Process.Kill()
	start := time.Now()
	w.noLeftovers(20 * time.Second)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the session ended %v after its only agent was killed mid-wait; want about linger + grace", d)
	}
}
