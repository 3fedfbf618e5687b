package testkit

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestModelView: a result with structured content reads as its JSON (the
// text dropped, as agent clients do), one without as its text contents.
func TestModelView(t *testing.T) {
	t.Parallel()
	text := []mcp.Content{&mcp.TextContent{Text: "job 0 running"}, &mcp.TextContent{Text: "\n> ready"}}
	if got := ModelView(&mcp.CallToolResult{Content: text}); got != "job 0 running\n> ready" {
		t.Errorf("text only: %q", got)
	}
	typed := &mcp.CallToolResult{Content: text, StructuredContent: map[string]any{"id": 0, "state": "running"}}
	if got := ModelView(typed); got != `{"id":0,"state":"running"}` {
		t.Errorf("with structured content: %q, want its JSON alone", got)
	}
}
