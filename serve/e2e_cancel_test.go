//go:build unix

package serve

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// rawServe is `jobdeck --serve` driven line by line, as a client that
// writes its own JSON-RPC (a cancel, EOF while calls run).
type rawServe struct {
	t       *testing.T
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	answers chan map[string]any
	got     map[any]map[string]any
}

// startRawServe starts `jobdeck --serve args` and initializes its session.
func startRawServe(t *testing.T, args ...string) *rawServe {
	cmd := exec.Command(jobdeckBinary(t), append([]string{"--serve"}, args...)...)
	cmd.Dir = t.TempDir()
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &rawServe{t: t, cmd: cmd, stdin: stdin, answers: make(chan map[string]any, 16), got: map[any]map[string]any{}}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil && m["id"] != nil {
				r.answers <- m
			}
		}
		close(r.answers)
	}()
	r.send(testkit.LineInitialize)
	r.send(testkit.LineInitialized)
	return r
}

// send writes one line to jobdeck's input.
func (r *rawServe) send(line string) {
	if _, err := fmt.Fprintln(r.stdin, line); err != nil {
		r.t.Fatal(err)
	}
}

// call sends a tools/call with id.
func (r *rawServe) call(id int, tool, args string) {
	r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args))
}

// answer waits for the answer to id and returns its text and wait reason.
func (r *rawServe) answer(id float64, within time.Duration) (string, string) {
	r.t.Helper()
	deadline := time.After(within)
	for r.got[id] == nil {
		select {
		case m, ok := <-r.answers:
			if !ok {
				r.t.Fatalf("no answer to %v: jobdeck's output ended", id)
			}
			r.got[m["id"]] = m
		case <-deadline:
			r.t.Fatalf("no answer to %v within %v", id, within)
		}
	}
	var res struct {
		Result struct {
			Content    []struct{ Text string }
			Structured struct {
				Wait struct{ Reason string }
			} `json:"structuredContent"`
		}
	}
	b, _ := json.Marshal(r.got[id])
	json.Unmarshal(b, &res)
	if len(res.Result.Content) == 0 {
		r.t.Fatalf("answer to %v: %s", id, b)
	}
	return res.Result.Content[0].Text, res.Result.Structured.Wait.Reason
}

// TestEndToEndWaitCancelled: a wait the client cancelled, or one cut
// short at EOF, says what happened (the client cancelled it, or the
// session is ending), never "timed out".
func TestEndToEndWaitCancelled(t *testing.T) {
	t.Parallel()
	r := startRawServe(t, "--private", "--grace", "0", "--structured")
	defer waitExit(t, r.cmd, 60*time.Second)
	r.call(1, toolBackground, `{"command":"sleep 120"}`)
	r.answer(1, 10*time.Second)
	r.call(2, toolStatus, `{"id":0,"wait":60}`)
	time.Sleep(500 * time.Millisecond) // the wait is under way (not an assertion)
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	if text, reason := r.answer(2, 10*time.Second); !strings.Contains(text, "\nwait: cancelled by the client after ") || strings.Contains(text, "timed out") || reason != "cancelled" {
		t.Errorf("a cancelled wait (%s):\n%s", reason, text)
	}
	// At EOF, waits still running after 30 s are cut short: the session
	// is ending.
	r.call(3, toolStatus, `{"id":0,"wait":120}`)
	r.call(4, toolStatus, `{"wait":120}`)
	time.Sleep(500 * time.Millisecond) // the waits are under way (not an assertion)
	r.stdin.Close()
	for _, id := range []float64{3, 4} {
		if text, reason := r.answer(id, 50*time.Second); !strings.Contains(text, "wait: cut short after 30") || !strings.Contains(text, ": the session is ending (the client's input ended)") || reason != "cancelled" {
			t.Errorf("a wait cut short at EOF (%s):\n%s", reason, text)
		}
	}
}
