//go:build linux

package session

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// A session started under `ulimit -n 40` runs out of file descriptors
// after a few jobs: the job that cannot start says that the open-file
// limit is reached, gives it (40), and what to do, not a bare "too many
// open files".
func TestOpenFileLimitNamed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	cmd := exec.Command("bash", "-c", `ulimit -n 40 && exec "$0" --serve --linger 0s --grace 1s`, w.bin)
	cmd.Dir, cmd.Env = w.wt, w.env()
	cs := testkit.Agent(t, cmd, "agent")
	var texts []string
	for i := range 8 {
		ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "background", Arguments: map[string]any{"command": w.job(fmt.Sprintf("sleep 30%d", i))}})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		text := testkit.ToolText(res)
		texts = append(texts, text)
		if res.IsError {
			break
		}
	}
	last := texts[len(texts)-1]
	if !strings.Contains(last, "ulimit -n: 40") || !strings.Contains(last, "stop some jobs") {
		t.Fatalf("under ulimit -n 40, %d jobs started and the last answer does not name the limit:\n%s", len(texts), strings.Join(texts, "\n"))
	}
	t.Logf("%d jobs started, then: %s", len(texts)-1, last)
}
