package serve

import (
	"context"
	"io"
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
