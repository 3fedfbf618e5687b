//go:build unix

package serve

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// TestEndToEndEOFAnswers: `jobdeck --serve < requests` answers every
// request, with stdin closed right behind them: an initialize alone (12
// runs), and three requests still running at EOF. Both in-process
// (--private) and through the user's session (the relay).
func TestEndToEndEOFAnswers(t *testing.T) {
	t.Parallel()
	bin := jobdeckBinary(t)
	sessions := sessionDir(t)
	mark := marker(t)
	// Requests run concurrently: three that do not depend on each other,
	// each taking a moment (a start waits about 300 ms for the job's
	// first output); the jobs end by themselves.
	var reqs []string
	for i := 1; i <= 3; i++ {
		reqs = append(reqs, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"background","arguments":{"command":"export %s; sleep 0.5; echo done %d"}}}`, i, mark, i))
	}
	three := strings.Join(append([]string{testkit.LineInitialize, testkit.LineInitialized}, reqs...), "\n") + "\n"
	for _, mode := range [][]string{{"--private"}, nil} {
		run := func(input string) []byte {
			cmd := exec.Command(bin, append([]string{"--serve", "--grace", "1s"}, mode...)...)
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), "JOBDECK_SESSION_DIR="+sessions)
			cmd.Stdin = strings.NewReader(input)
			var out, errb recorder
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if code := waitExit(t, cmd, 60*time.Second); code != 0 {
				t.Errorf("%v: exit code %d; stderr: %s", mode, code, errb.bytes())
			}
			return out.bytes()
		}
		for i := range 12 {
			if out := run(testkit.LineInitialize + "\n"); !bytes.Contains(out, []byte(`"id":"init","result"`)) {
				t.Errorf("%v, run %d: the piped initialize was not answered: %q", mode, i, out)
			}
		}
		out := run(three)
		if got := answered(out, "1", "2", "3"); got != 3 {
			t.Errorf("%v: %d of 3 requests answered:\n%s", mode, got, out)
		}
		if n := bytes.Count(out, []byte(`"isError":true`)); n > 0 {
			t.Errorf("%v: %d of the starts failed:\n%s", mode, n, out)
		}
	}
	checkNoLeftovers(t, mark)
}

// sessionDir is a session directory of the test's own (never the
// developer's); at the end the test waits for its sessions to end.
func sessionDir(t *testing.T) string {
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	t.Cleanup(func() {
		if !testkit.WaitSessions(dir, 30*time.Second) {
			t.Errorf("a session in %s did not end within 30 s", dir)
		}
	})
	return dir
}
