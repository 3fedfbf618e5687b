//go:build unix

package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// TestStructuredTravels: --structured reaches the session's MCP server of
// that one agent connection (in its hello), through real processes: two
// `jobdeck --serve` relays to one session, one with --structured, and an
// HTTP front with it. The plain agent's tools declare no output schema
// and its results are text alone; the typed agents' carry structured
// content, and its JSON is what their model reads (testkit.ModelView).
func TestStructuredTravels(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	plain, _ := w.agent("plain", "--linger", "1s")
	typed, _ := w.agent("typed", "--structured")
	overHTTP, _, _, _ := w.httpAgent("http-typed", "--structured")
	for _, c := range []struct {
		name  string
		cs    *mcp.ClientSession
		typed bool
	}{{"plain", plain, false}, {"typed", typed, true}, {"http-typed", overHTTP, true}} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		tools, err := c.cs.ListTools(ctx, nil)
		if err != nil {
			cancel()
			t.Fatalf("%s: tools/list: %v", c.name, err)
		}
		for _, tool := range tools.Tools {
			if (tool.OutputSchema != nil) != c.typed {
				t.Errorf("%s: %s has output schema %v; want one only with --structured", c.name, tool.Name, tool.OutputSchema)
			}
		}
		res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "background", Arguments: map[string]any{"command": w.job("echo hello from " + c.name + "; sleep 300")}})
		cancel()
		if err != nil || res.IsError {
			t.Fatalf("%s: background: %v %v", c.name, err, res)
		}
		read := testkit.ModelView(res)
		switch {
		case c.typed && (res.StructuredContent == nil || !strings.Contains(read, `"lines":[{"seq":1`)):
			t.Errorf("%s: no structured content with --structured: %s", c.name, read)
		case !c.typed && (res.StructuredContent != nil || !strings.Contains(read, "\n> hello from plain")):
			t.Errorf("%s: want the text alone, the model reading it: %v\n%s", c.name, res.StructuredContent, read)
		}
	}
	w.call(plain, "job_kill", map[string]any{"id": 0, "grace": 0}, false)
	w.call(plain, "job_kill", map[string]any{"id": 1, "grace": 0}, false)
	w.call(plain, "job_kill", map[string]any{"id": 2, "grace": 0}, false)
}
