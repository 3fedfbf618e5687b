package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRunStreamNamesClient: RunStream tells OnClient the client's name
// once, from its initialize (and not again for its tool calls).
func TestRunStreamNamesClient(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	names := make(chan string, 4)
	done := make(chan error, 1)
	go func() {
		done <- RunStream(t.Context(), &fakeCore{}, inR, outW, StreamOptions{OnClient: func(n string) { names <- n }})
		outW.Close()
	}()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "codex", Version: "1"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "job_status", Arguments: map[string]any{}}); err != nil {
			t.Fatal(err)
		}
	}
	cs.Close()
	if err := <-done; err != nil {
		t.Fatalf("RunStream: %v", err)
	}
	close(names)
	var got []string
	for n := range names {
		got = append(got, n)
	}
	if len(got) != 1 || got[0] != "codex" {
		t.Fatalf("OnClient got %q, want [codex] once", got)
	}
}

// TestCancelPassesTheLimit: with 16 calls unanswered (the most a client
// may have), a cancel notification still gets through: it ends one wait,
// and the call behind it (a ping) is answered long before the waits run
// out.
func TestCancelPassesTheLimit(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	fc := &fakeCore{blockWait: true}
	go func() {
		_ = RunStream(t.Context(), fc, inR, outW, StreamOptions{})
		outW.Close()
	}()
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	<-lines
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"background","arguments":{"command":"a"}}}`)
	<-lines
	for i := 1; i <= maxUnanswered; i++ {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"job_status","arguments":{"id":0,"wait":60}}}`, i))
	}
	start := time.Now()
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	send(`{"jsonrpc":"2.0","id":100,"method":"ping"}`)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the server ended")
			}
			if strings.Contains(l, `"id":100`) {
				t.Logf("ping answered %v after the cancel, with %d waits of 60 s running", time.Since(start).Round(time.Millisecond), maxUnanswered-1)
				return
			}
		case <-deadline:
			t.Fatal("the ping was not answered: the cancel was held behind the limit")
		}
	}
}
