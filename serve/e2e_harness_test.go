package serve

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// The end-to-end tests build the real jobdeck binary and drive
// `jobdeck --serve` as an MCP client would. They need the go tool (to
// build) and bash; they skip without them.

func TestMain(m *testing.M) {
	if helperMain() { // the test binary as a job's program (helpers_proc_test.go)
		return
	}
	code := m.Run()
	testkit.RemoveBuilds()
	os.Exit(code)
}

// jobdeckBinary is testkit.Jobdeck: the jobdeck binary, built once.
var jobdeckBinary = testkit.Jobdeck

// startServe starts `jobdeck --serve --private --structured` (typed
// results: the tests read their structured content) with its stdout
// recorded and returns a connected client session.
func startServe(t testing.TB, rec *recorder, stderr io.Writer) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	return startServeIn(t, rec, stderr, t.TempDir(), nil, "--private", "--grace", "2s", "--structured")
}

// startServeIn starts `jobdeck --serve args` in dir with env added to
// the environment, as startServe does.
func startServeIn(t testing.TB, rec *recorder, stderr io.Writer, dir string, env []string, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(jobdeckBinary(t), append([]string{"--serve"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = outW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	outW.Close()
	t.Cleanup(func() {
		// Only if the test failed before the process exited.
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	pr, pw := io.Pipe()
	go func() {
		// Every byte goes to the recorder and on to the client.
		_, err := io.Copy(io.MultiWriter(rec, pw), outR)
		pw.CloseWithError(err)
		outR.Close()
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: pr, Writer: stdin}, nil)
	if err != nil {
		t.Fatalf("connect to jobdeck --serve: %v", err)
	}
	return cs, cmd
}

// marker returns a unique environment assignment to tag a test's jobs.
func marker(t *testing.T) string {
	return fmt.Sprintf("JOBDECK_SERVE_TEST_MARKER=%s-%d-%d", strings.ReplaceAll(t.Name(), "/", "_"), os.Getpid(), time.Now().UnixNano())
}

// checkNoLeftovers waits until no process carries marker, an environment
// entry of the test's jobs (10 s at most).
func checkNoLeftovers(t *testing.T, marker string) {
	t.Helper()
	if !testkit.Poll(10*time.Second, func() bool { return len(testkit.EnvMarked(marker)) == 0 }) {
		t.Errorf("processes left behind: %v", testkit.EnvMarked(marker))
	}
}

// waitExit waits for cmd to exit and returns its exit code (-1 when killed
// by a signal).
func waitExit(t *testing.T, cmd *exec.Cmd, within time.Duration) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(within):
		t.Fatalf("jobdeck did not exit within %v", within)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return -1
	}
	return cmd.ProcessState.ExitCode()
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
