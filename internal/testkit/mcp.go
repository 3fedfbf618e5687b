package testkit

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Agent connects an MCP client called name to cmd, a `jobdeck --serve`
// not started yet, over its stdin and stdout (the go-sdk's command
// transport), within 30 s, and closes the session when t ends. cmd's
// stderr is kept, to show when the connection fails.
func Agent(t testing.TB, cmd *exec.Cmd, name string) *mcp.ClientSession {
	t.Helper()
	var stderr Buffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v\nstderr: %s", name, err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// CallTool calls the tool name with args, within d, and returns the text
// of its result (ToolText). A call that fails fails t, and so does a
// result whose isError is not wantErr.
func CallTool(t testing.TB, cs *mcp.ClientSession, d time.Duration, name string, args map[string]any, wantErr bool) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	text := ToolText(res)
	if res.IsError != wantErr {
		t.Fatalf("%s %v: isError %v, want %v: %s", name, args, res.IsError, wantErr, text)
	}
	return text
}

// ToolText is the text of a tool result: its text contents, one after the
// other.
func ToolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// ModelView is what an agent client hands its model for a tool result:
// the JSON of its structured content when it has one (Claude Code, Codex,
// opencode and VS Code then drop the text), else its text contents, one
// after the other (ToolText). Its length is the bytes the model reads.
func ModelView(res *mcp.CallToolResult) string {
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return "structured content that is not JSON: " + err.Error()
		}
		return string(b)
	}
	return ToolText(res)
}

// BaselineServer runs the go-sdk's plainest server on stdin and stdout
// until its input ends: one tool, "reply", that returns a text of the
// size its argument asks for ({"size": N}). It is the baseline of the
// benchmarks of a tool call: a test binary runs it as a helper process.
func BaselineServer() {
	s := mcp.NewServer(&mcp.Implementation{Name: "baseline", Version: "0"}, nil)
	type args struct {
		Size int `json:"size"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "reply", Description: "a text of size bytes"}, func(_ context.Context, _ *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", in.Size)}}}, nil, nil
	})
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}
