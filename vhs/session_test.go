//go:build unix

package vhs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// The console and an agent in one worktree share one session: these tests
// run both, as a developer and a coding agent would, each a real jobdeck
// process (the console in a terminal, `jobdeck --serve` under the go-sdk's
// client), meeting in the session their worktree names.

// agentIn starts `jobdeck --serve` with env (the shell's, so that it meets
// the console's session) in the vhs directory and returns its client.
func agentIn(t testing.TB, env []string, name string) *mcp.ClientSession {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(jobdeckDir(t), "jobdeck"), "--serve", "--grace", "1s", "--linger", "1s")
	cmd.Dir = dir
	cmd.Env = env
	return testkit.Agent(t, cmd, name)
}

// tool calls a tool and returns its text; a tool error fails the test.
func tool(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	return testkit.CallTool(t, cs, 60*time.Second, name, args, false)
}

// sessionMark is a marker for one test's jobs (in their environment).
func sessionMark() string {
	return "vhssess-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 10)
}

// Agent first, then the console: the console shows the agent's dev server
// within a second of the agent starting it, kills it with x, y, and the
// agent's next result says the console stopped it. Nothing is left.
func TestAgentJobKilledFromConsole(t *testing.T) {
	t.Parallel()
	term, env := startShellEnv(t, 120, 30)
	mark := sessionMark()
	agent := agentIn(t, env, "claude-code")
	typeLine(term, "jobdeck")
	waitScreen(t, term, "Screen", `No jobs yet`, 15*time.Second)
	start := time.Now()
	tool(t, agent, "background", map[string]any{
		"command": "export DEMO_MARK=" + mark + "; echo dev server ready on 5173; sleep 300",
		"name":    "web",
	})
	waitScreen(t, term, "Screen", `dev server ready on 5173`, 10*time.Second)
	t.Logf("the agent's job reached the console's screen %v after background returned", time.Since(start).Round(time.Millisecond))
	term.SendText("x")
	waitScreen(t, term, "Screen", `kill job 0 .* y/n`, 5*time.Second)
	term.SendText("y")
	waitScreen(t, term, "Screen", `killed by SIGTERM`, 15*time.Second)
	rep := tool(t, agent, "job_status", map[string]any{"id": "web"})
	if !strings.Contains(rep, "console") {
		t.Errorf("the agent is not told that the console stopped its job:\n%s", rep)
	}
	term.SendText("q")
	if code := ownScan(t, mark, "5"); code != 0 {
		t.Errorf("leftovers after the console's kill (leftovers.sh exited %d)", code)
	}
}

// Console first, started with a job; an agent joins, reads that job and
// starts its own, which runs with the agent's environment, not the
// console's.
func TestAgentJoinsConsole(t *testing.T) {
	t.Parallel()
	mark := sessionMark()
	term, env := startShellEnv(t, 120, 30)
	typeLine(term, "WHO=console-shell jobdeck -- "+shellQuote("export DEMO_MARK="+mark+"; echo console job sees WHO=$WHO; sleep 300"))
	waitScreen(t, term, "Screen", `console job sees WHO=console-shell`, 15*time.Second)
	agent := agentIn(t, append(env, "WHO=agent-client"), "codex")
	if out := tool(t, agent, "job_status", map[string]any{"id": 0}); !strings.Contains(out, "WHO=console-shell") {
		t.Fatalf("the agent cannot read the console's job:\n%s", out)
	}
	out := tool(t, agent, "background", map[string]any{"command": "export DEMO_MARK=" + mark + "; echo agent job sees WHO=$WHO; sleep 300"})
	if !strings.Contains(out, "WHO=agent-client") {
		t.Fatalf("the agent's job does not run with the agent's environment:\n%s", out)
	}
	waitScreen(t, term, "Screen", `agent job sees WHO=agent-client`, 10*time.Second)
	// Stop both from the agent's side, then leave: nothing is left.
	tool(t, agent, "job_kill", map[string]any{"id": 0})
	tool(t, agent, "job_kill", map[string]any{"id": 1})
	term.SendText("q")
	term.SendKey(uv.KeyPressEvent{Code: 'y'})
	if code := ownScan(t, mark, "5"); code != 0 {
		t.Errorf("leftovers (leftovers.sh exited %d)", code)
	}
}

// The console quits while an agent is attached: no question, the agent's
// job keeps running, and the console says so; when the agent leaves last,
// the session lingers and then stops every job.
func TestConsoleDetaches(t *testing.T) {
	t.Parallel()
	term, env := startShellEnv(t, 120, 30)
	mark := sessionMark()
	agent := agentIn(t, env, "detach-agent")
	tool(t, agent, "background", map[string]any{"command": "export DEMO_MARK=" + mark + "; echo agent job up; sleep 300"})
	typeLine(term, "jobdeck")
	waitScreen(t, term, "Screen", `agent job up`, 15*time.Second)
	waitScreen(t, term, "Screen", `with detach-agent`, 10*time.Second)
	term.SendText("q")
	waitScreen(t, term, "Screen", `detached from the session of .*; 1 job keeps running for detach-agent`, 10*time.Second)
	if n := len(testkit.EnvMarked("DEMO_MARK=" + mark)); n == 0 {
		t.Fatal("the agent's job stopped when the console detached")
	}
	agent.Close()
	// linger 1 s + grace 1 s, on a busy machine.
	if code := ownScan(t, mark, "15"); code != 0 {
		t.Errorf("the agent left last, yet its job is still there (leftovers.sh exited %d)", code)
	}
}

// A session stopped under the console (`jobdeck sessions stop`) shows as a
// lost link that says why; r joins again (a new session), q quits.
func TestConsoleSeesSessionEnd(t *testing.T) {
	t.Parallel()
	term, env := startShellEnv(t, 140, 30)
	typeLine(term, "jobdeck")
	waitScreen(t, term, "Screen", `No jobs yet`, 15*time.Second)
	dir, _ := os.Getwd()
	stop := exec.Command(filepath.Join(jobdeckDir(t), "jobdeck"), "sessions", "stop")
	stop.Dir, stop.Env = dir, env
	if out, err := stop.CombinedOutput(); err != nil {
		t.Fatalf("jobdeck sessions stop: %v\n%s", err, out)
	}
	waitScreen(t, term, "Screen", "the session ended \\(stopped by `jobdeck sessions stop`\\) · r joins again · q quits", 10*time.Second)
	term.SendText("r")
	waitScreen(t, term, "Screen", `joined the session of .* again`, 15*time.Second)
	term.SendText("q")
	waitScreen(t, term, "Line", `>$`, 10*time.Second)
}

// A job shown by two consoles gets the smaller pane's size, and grows back
// to the first console's pane when the smaller console leaves: the size
// the job reports is the first console's pane as it is on screen then.
func TestTwoConsolesSizeAJob(t *testing.T) {
	t.Parallel()
	big, env := startShellEnv(t, 160, 45)
	// fd 3 is the pty: inside $(…), fd 1 is the substitution's pipe.
	typeLine(big, "jobdeck")
	waitScreen(t, big, "Screen", `No jobs yet`, 15*time.Second)
	// The trap raises a flag the loop reports on: bash drops a signal
	// that comes while its own trap runs.
	typeLine(big, `/background exec 3>&1; trap w=1 WINCH; s(){ echo size $(stty size <&3); }; s; while :; do [ "$w" ] && { w=; s; }; sleep 0.2; done`)
	fits := func(when string) {
		t.Helper()
		waitPaneFits(t, big, when, 15*time.Second, func(screen string, cols, rows int) (string, bool) {
			got := lastSize(screen)
			return fmt.Sprintf("the job says %q", got), got == fmt.Sprintf("size %d %d", rows, cols)
		})
	}
	fits("shown by one console")
	small := startShellWith(t, 80, 24, env)
	typeLine(small, "jobdeck")
	waitScreen(t, small, "Screen", `size \d+ \d+`, 15*time.Second)
	waitScreen(t, big, "Screen", `size (\d|1\d) `, 15*time.Second) // the small console's pane has under 20 rows
	small.SendText("q")
	waitScreen(t, small, "Line", `>$`, 10*time.Second)
	fits("after the small console left")
	big.SendText("q")
	big.SendText("y")
}

// lastSize is the last "size R C" a screen shows.
func lastSize(screen string) string {
	m := regexp.MustCompile(`size \d+ \d+`).FindAllString(screen, -1)
	if len(m) == 0 {
		return ""
	}
	return m[len(m)-1]
}

// startShellWith starts another bash with env (another shell's, so that
// its jobdeck meets that shell's session) in the vhs directory.
func startShellWith(t *testing.T, cols, rows int, env []string) *Term {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("skipping: bash not on PATH")
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	term, err := StartTerm(TermOptions{Argv: append([]string{bash}, ShellArgv[1:]...), Env: env, Dir: dir, Cols: cols, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = term.Close(10 * time.Second) })
	waitScreen(t, term, "Line", `>$`, 10*time.Second)
	return term
}
