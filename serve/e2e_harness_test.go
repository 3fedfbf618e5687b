package serve

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The end-to-end tests build the real jobdeck binary and drive
// `jobdeck --serve` as an MCP client would. They need the go tool (to
// build) and bash; they skip without them.

var (
	buildOnce sync.Once
	buildDir  string
	buildBin  string
	buildErr  error
)

func TestMain(m *testing.M) {
	if helperMain() { // the test binary as a job's program (helpers_proc_test.go)
		return
	}
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// jobdeckBinary builds github.com/jobdeck/jobdeck once per test run.
// JOBDECK_TEST_BIN, when set, names a binary to use instead.
func jobdeckBinary(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv("JOBDECK_TEST_BIN"); bin != "" {
		return bin
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("end-to-end test needs the go tool to build jobdeck: not in PATH")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("end-to-end test needs bash: not in PATH")
	}
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "jobdeck-serve-e2e-")
		if buildErr != nil {
			return
		}
		buildBin = filepath.Join(buildDir, "jobdeck")
		cmd := exec.Command(goTool, "build", "-o", buildBin, "github.com/jobdeck/jobdeck")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildBin
}

// startServe starts `jobdeck --serve` with its stdout recorded and
// returns a connected client session.
func startServe(t testing.TB, rec *recorder, stderr io.Writer) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(jobdeckBinary(t), "--serve", "--private", "--grace", "2s")
	cmd.Dir = t.TempDir()
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

// processesWith returns the pids whose environment holds marker.
func processesWith(marker string) []string {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var pids []string
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ"))
		if err != nil {
			continue
		}
		for kv := range bytes.SplitSeq(env, []byte{0}) {
			if string(kv) == marker {
				pids = append(pids, filepath.Base(d))
				break
			}
		}
	}
	return pids
}

// checkNoLeftovers waits until no process carries marker.
func checkNoLeftovers(t *testing.T, marker string) {
	t.Helper()
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Log("no /proc: leftover check skipped")
		return
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids := processesWith(marker)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("processes left behind: %v", pids)
			return
		}
		time.Sleep(50 * time.Millisecond)
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
