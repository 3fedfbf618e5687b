//go:build unix

package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The session tests run the real jobdeck binary (built once per run): two
// or more jobdeck processes per test, a session process, real jobs.

var (
	buildOnce sync.Once
	buildDir  string
	buildBin  string
	buildErr  error
)

func TestMain(m *testing.M) {
	if role := os.Getenv(roleEnv); role != "" {
		os.Exit(runRole(role))
	}
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// jobdeck builds github.com/jobdeck/jobdeck once per test run.
func jobdeck(t testing.TB) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the session tests build jobdeck: the go tool is not in PATH")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("the session tests need bash: not in PATH")
	}
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "jobdeck-session-test-")
		if buildErr != nil {
			return
		}
		// World-readable so that a test as another uid can run it.
		_ = os.Chmod(buildDir, 0o755)
		buildBin = filepath.Join(buildDir, "jobdeck")
		out, err := exec.Command(goTool, "build", "-o", buildBin, "github.com/jobdeck/jobdeck").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildBin
}

// world is one test's sessions directory and worktree.
type world struct {
	t    testing.TB
	bin  string
	sdir string // JOBDECK_SESSION_DIR
	wt   string // the worktree the clients start in
	mark string // a marker every job of the test exports, for leftover scans
}

func newWorld(t testing.TB) *world {
	t.Helper()
	w := &world{t: t, bin: jobdeck(t), sdir: t.TempDir(), wt: t.TempDir()}
	if err := os.Chmod(w.sdir, 0o700); err != nil {
		t.Fatal(err)
	}
	if real, err := filepath.EvalSymlinks(w.wt); err == nil {
		w.wt = real
	}
	w.mark = fmt.Sprintf("jdtest%d%d", os.Getpid(), time.Now().UnixNano()%1e9)
	t.Cleanup(func() {
		// Whatever happened, leave nothing: stop the session, then check.
		if pid := w.sessionPID(); pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGTERM) // our own child's child: pid from its info file, checked below
		}
		w.noLeftovers(20 * time.Second)
	})
	return w
}

// env is the environment of the test's jobdeck processes.
func (w *world) env(extra ...string) []string {
	return append(append(os.Environ(), EnvDir+"="+w.sdir), extra...)
}

// cmd is a jobdeck command in the worktree.
func (w *world) cmd(args ...string) *exec.Cmd {
	c := exec.Command(w.bin, args...)
	c.Dir = w.wt
	c.Env = w.env()
	return c
}

// agent starts `jobdeck --serve args…` and returns its MCP client session.
func (w *world) agent(name string, args ...string) (*mcp.ClientSession, *exec.Cmd) {
	w.t.Helper()
	cmd := w.cmd(append([]string{"--serve"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		w.t.Fatalf("connect %s: %v\nstderr: %s", name, err, stderr.String())
	}
	w.t.Cleanup(func() { cs.Close() })
	return cs, cmd
}

// call calls a tool and returns its text; a tool error fails the test
// unless wantErr.
func (w *world) call(cs *mcp.ClientSession, tool string, args map[string]any, wantErr bool) string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		w.t.Fatalf("%s %v: %v", tool, args, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	if res.IsError != wantErr {
		w.t.Fatalf("%s %v: isError %v, want %v: %s", tool, args, res.IsError, wantErr, b.String())
	}
	return b.String()
}

// info reads the session's info file; ok is false when there is none.
func (w *world) info() (Info, bool) {
	t := Target{Worktree: w.wt}
	b, err := os.ReadFile(filepath.Join(w.sdir, t.Key()+".json"))
	if err != nil {
		return Info{}, false
	}
	var i Info
	if json.Unmarshal(b, &i) != nil {
		return Info{}, false
	}
	return i, true
}

// sessionPID is the live session's pid (its lock is held), or 0.
func (w *world) sessionPID() int {
	i, ok := w.info()
	if !ok || !locked(filepath.Join(w.sdir, i.Key+".lock")) {
		return 0
	}
	return i.PID
}

// marked lists the pids of processes whose environment exports the test's
// marker.
func (w *world) marked() []int {
	want := []byte("JDTEST_MARK=" + w.mark)
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// job is a command that exports the test's marker first.
func (w *world) job(cmd string) string {
	return "export JDTEST_MARK=" + w.mark + "; " + cmd
}

// noLeftovers fails the test when, within d, marked processes or a live
// session remain.
func (w *world) noLeftovers(d time.Duration) {
	w.t.Helper()
	deadline := time.Now().Add(d)
	for {
		procs, pid := w.marked(), w.sessionPID()
		if len(procs) == 0 && pid == 0 {
			return
		}
		if time.Now().After(deadline) {
			w.t.Errorf("after %v: marked processes %v, session pid %d still there", d, procs, pid)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitFor polls cond until it holds or d passes.
func waitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// roleEnv makes the test binary play a part in another process (another
// uid's client, for instance); see runRole.
const roleEnv = "JDTEST_SESSION_ROLE"

// runRole runs the test binary as a helper process.
func runRole(role string) int {
	switch role {
	case "dial":
		// Connect to the socket in JDTEST_SOCKET, say hello, print what
		// came back (or the error).
		out, err := dialAndHello(os.Getenv("JDTEST_SOCKET"))
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		fmt.Println("answer:", out)
		return 0
	case "read":
		_, err := os.ReadFile(os.Getenv("JDTEST_FILE"))
		fmt.Println("read:", err)
		return 0
	case "oldsession":
		return oldSession(os.Getenv("JDTEST_SDIR"), os.Getenv("JDTEST_KEY"))
	}
	fmt.Println("unknown role", role)
	return 2
}
