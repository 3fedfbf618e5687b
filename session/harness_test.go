//go:build unix

package session

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// The session tests run the real jobdeck binary (built once per run): two
// or more jobdeck processes per test, a session process, real jobs.

func TestMain(m *testing.M) {
	if role := os.Getenv(roleEnv); role != "" {
		os.Exit(runRole(role))
	}
	code := m.Run()
	testkit.RemoveBuilds()
	os.Exit(code)
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
	w := &world{t: t, bin: testkit.Jobdeck(t), sdir: t.TempDir(), wt: t.TempDir()}
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
	cs := testkit.Agent(w.t, cmd, name)
	return cs, cmd
}

// call calls a tool and returns its text; a tool error fails the test
// unless wantErr.
func (w *world) call(cs *mcp.ClientSession, tool string, args map[string]any, wantErr bool) string {
	w.t.Helper()
	return testkit.CallTool(w.t, cs, 60*time.Second, tool, args, wantErr)
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
func (w *world) marked() []int { return testkit.EnvMarked("JDTEST_MARK=" + w.mark) }

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

// waitFor is testkit.WaitFor, under the name this package's tests use.
var waitFor = testkit.WaitFor

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
	case "mcp-baseline":
		testkit.BaselineServer()
		return 0
	}
	fmt.Println("unknown role", role)
	return 2
}
