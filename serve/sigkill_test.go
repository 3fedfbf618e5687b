package serve

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// TestEndToEndSIGKILL kills `jobdeck --serve` with SIGKILL while it runs a
// tree with a SIGTERM-ignoring child, a setsid'd child and an orphan: the
// per-job supervisor sees its control pipe close and stops the tree, so
// every process is gone within grace (2 s) + 2 s.
func TestEndToEndSIGKILL(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("needs setsid (util-linux)")
	}
	script, err := filepath.Abs("testdata/crash-tree.sh")
	if err != nil {
		t.Fatal(err)
	}
	mark := marker(t)
	sigkillServe(t, fmt.Sprintf("export %s; bash %s", mark, script), "crash-tree READY", func(within time.Duration) {
		if len(testkit.EnvMarked(mark)) == 0 {
			// processesWith is checked right after the kill: the tree
			// cannot have gone that fast (the TERM-ignoring child needs
			// the whole grace), so an empty list means a broken check.
			t.Fatal("no process carries the marker right after the kill: the check cannot see the tree")
		}
		deadline := time.Now().Add(within)
		for len(testkit.EnvMarked(mark)) > 0 {
			if time.Now().After(deadline) {
				t.Fatalf("processes left %v after jobdeck was SIGKILLed: %v", within, testkit.EnvMarked(mark))
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// TestEndToEndSIGKILLCase34 does the same with the shared adversarial case
// 34 (a TERM-ignoring child, a setsid'd child, a double-forked python
// server on a port, a detached node child) and its leftover checker.
func TestEndToEndSIGKILLCase34(t *testing.T) {
	cases := testkit.ProcCases(t)
	for _, tool := range []string{"python3", "node", "setsid"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("case 34 needs %s (CI installs it)", tool)
		}
	}
	mark := fmt.Sprintf("pcase-34-serve-%d", os.Getpid())
	// A port of its own: other runs may use the case's default one.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := fmt.Sprintf("export PROC_CASE_MARKER=%s PROC_CASE_PORT=%s; bash %s", mark, port, filepath.Join(cases, "34-console-crash.sh"))
	sigkillServe(t, cmd, "READY", func(within time.Duration) {
		if code, out := testkit.CheckLeftovers(t, cases, "-m", mark, "-p", port, "-w", fmt.Sprint(int(within.Seconds()))); code != 0 {
			t.Fatalf("after jobdeck was SIGKILLed: exit status %d\n%s", code, out)
		}
	})
}

// sigkillServe starts jobdeck --serve (grace 2 s), runs command as a job,
// waits for ready on its output, SIGKILLs jobdeck, and calls check with
// the time allowed for the tree to go (grace + 2 s); check must also pass
// within that time counted from the kill.
func sigkillServe(t *testing.T, command, ready string, check func(within time.Duration)) {
	rec := &recorder{}
	cs, cmd := startServe(t, rec, os.Stderr)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "background", Arguments: map[string]any{"command": command}})
	if err != nil || res.IsError {
		t.Fatalf("background: %v %v", err, textOf(res))
	}
	res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "job_status", Arguments: map[string]any{
		"id": 0, "since": 0, "wait": 20, "until": ready}})
	if err != nil || res.IsError || !strings.Contains(textOf(res), ready) {
		t.Fatalf("job never got ready: %v\n%s", err, textOf(res))
	}
	killed := time.Now()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	check(4 * time.Second)
	t.Logf("tree gone %v after jobdeck was SIGKILLed", time.Since(killed).Round(10*time.Millisecond))
	if d := time.Since(killed); d > 4*time.Second+500*time.Millisecond {
		t.Errorf("the tree took %v to go; the bound is grace + 2 s = 4 s", d)
	}
}
