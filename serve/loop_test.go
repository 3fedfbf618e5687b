//go:build unix

package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// testRun5 prints 3000 lines, five of them failures, and exits 1.
const testRun5 = `for i in $(seq 1 3000); do case $i in 1107|1500|2024|2500|2999) echo "--- FAIL: TestCase$i (0.01s)";; *) echo "=== RUN TestCase$i";; esac; done; exit 1`

// TestAgentLoop is the measured loop of docs/agent-tools.md: start a dev server and
// wait until it listens, hit it, read the new lines, stop it; run a
// 3,000-line test command with 5 failures and get them. It goes through
// the default path (`jobdeck --serve` relaying to its worktree's session)
// with the go-sdk client and the real binary, and counts the calls and
// the bytes the model reads (testkit.ModelView: what agent clients hand
// it). The dev server is python3's http.server, or without python3 this
// test binary's own. With -v it prints the session as the model reads it.
func TestAgentLoop(t *testing.T) {
	t.Parallel()
	env := []string{"JOBDECK_SESSION_DIR=" + sessionDir(t)}
	cs, cmd := startServeIn(t, &recorder{}, os.Stderr, t.TempDir(), env, "--grace", "2s", "--linger", "0")
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	server, ready := "python3 -m http.server 0 --bind 127.0.0.1", "Serving HTTP"
	if _, err := exec.LookPath("python3"); err != nil {
		server, ready = helperLink(t, "devserver"), "listening on"
	}
	calls, bytes := 0, 0
	var session strings.Builder
	do := func(tool string, args map[string]any) string {
		t.Helper()
		res, _ := ok(t, cs, tool, args)
		if res.StructuredContent != nil {
			t.Errorf("%s: structured content by default", tool)
		}
		read := testkit.ModelView(res)
		calls++
		bytes += len(read)
		a, _ := json.Marshal(args)
		fmt.Fprintf(&session, "→ %s %s\n%s\n(%d bytes)\n\n", tool, a, read, len(read))
		return read
	}

	text := do(toolBackground, map[string]any{"command": server, "name": "web", "wait": 30, "until": ready})
	m := regexp.MustCompile(`(?:port (\d+) |http://127\.0\.0\.1:(\d+))`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no port in the start report:\n%s", text)
	}
	if !regexp.MustCompile(`\npid \d+\n`).MatchString(text) {
		t.Errorf("the start report does not give the pid:\n%s", text)
	}
	port := m[1] + m[2]
	resp, err := http.Get("http://127.0.0.1:" + port + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	fmt.Fprintf(&session, "(curl http://127.0.0.1:%s/)\n\n", port)
	// The kill report shows the lines this client was not shown: the hit.
	if text := do(toolKill, map[string]any{"id": "web"}); !strings.Contains(text, "GET /") {
		t.Errorf("the kill report lacks the request's line:\n%s", text)
	}
	text = do(toolBackground, map[string]any{"command": testRun5, "name": "tests", "wait": 120, "lines": 2})
	if !strings.Contains(text, "exited 1") {
		t.Fatalf("the tests did not end:\n%s", text)
	}
	text = do(toolStatus, map[string]any{"id": "tests", "grep": "FAIL"})
	if n := strings.Count(text, ": > --- FAIL"); n != 5 {
		t.Errorf("%d failures found, want 5:\n%s", n, text)
	}
	t.Logf("the loop took %d calls and %d bytes of what the model reads:\n\n%s", calls, bytes, session.String())
	if calls > 5 || bytes > 1200 {
		t.Errorf("the loop took %d calls and %d bytes the model reads; the target is at most 5 calls and 1,200 bytes", calls, bytes)
	}
}
