//go:build linux

package supervisor

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/model"
)

// procCase is one run of a case script as a job.
type procCase struct {
	t      *testing.T
	dir    string
	script string
	marker string   // PROC_CASE_MARKER of this run
	env    []string // extra environment of this run (PROC_CASE_PORT)
	ports  []int    // the ports in PROC_CASE_PORT and after
	j      *testJob
}

// caseSpec says how to run one case per its EXPECTED header and what to
// assert. args are the script's arguments; emit runs the script with
// --emit-command args and submits its output as the command; execPrefix
// prepends "exec " so the script's own exec becomes the leader.
type caseSpec struct {
	name  string
	args  []string
	emit  bool
	exec  bool
	tty   bool
	needs []string // programs the case needs (python3, node)
	noJob bool     // check starts the job itself (through a fake jobdeck)
	ports int      // how many consecutive free loopback ports (PROC_CASE_PORT)
	wait  int      // check-leftovers -w
	check func(c *procCase)
}

func TestSharedProcCases(t *testing.T) {
	dir := testkit.ProcCases(t)
	scripts, _ := filepath.Glob(filepath.Join(dir, "[0-9][0-9]-*.sh"))
	sort.Strings(scripts)
	if len(scripts) == 0 {
		t.Fatalf("no case scripts in %s", dir)
	}
	for _, script := range scripts {
		num := filepath.Base(script)[:2]
		specs, known := caseSpecs[num]
		if !known {
			specs = []caseSpec{{name: "generic", wait: 5, check: checkGeneric}}
		}
		for _, spec := range specs {
			name := strings.TrimSuffix(filepath.Base(script), ".sh")
			if spec.name != "" {
				name += "/" + spec.name
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				runCase(t, dir, script, num, spec)
			})
		}
	}
}

func runCase(t *testing.T, dir, script, num string, spec caseSpec) {
	for _, prog := range spec.needs {
		if _, err := exec.LookPath(prog); err != nil {
			t.Skipf("case needs %s, which is not installed", prog)
		}
	}
	c := &procCase{t: t, dir: dir, script: script, marker: "pcase-" + num + "-" + testSession()}
	command := "bash " + shellQuote(script)
	for _, a := range spec.args {
		command += " " + shellQuote(a)
	}
	if spec.emit {
		out, err := exec.Command("bash", append([]string{script, "--emit-command"}, spec.args...)...).Output()
		if err != nil {
			t.Fatalf("%s --emit-command: %v", script, err)
		}
		command = strings.TrimRight(string(out), "\n")
	}
	if spec.exec {
		command = "exec " + command
	}
	if spec.check == nil {
		spec.check = checkGeneric
	}
	if spec.wait == 0 {
		spec.wait = 3
	}
	env := append(os.Environ(), "LC_ALL=C", "PROC_CASE_MARKER="+c.marker, "PROC_CASE_LIFE=20")
	var ports []int
	if spec.ports > 0 {
		// Not the cases' default ports: other runs on this machine may
		// use those at the same time.
		ports = testkit.FreePorts(t, spec.ports)
		c.ports = ports
		c.env = []string{"PROC_CASE_PORT=" + strconv.Itoa(ports[0])}
		env = append(env, c.env...)
	}
	if !spec.noJob {
		c.j = startJob(t, Config{Command: command, Env: env, TTY: spec.tty, Grace: 2 * time.Second})
	}
	spec.check(c)
	if c.j != nil {
		if !c.j.waitDone(30 * time.Second) {
			_ = c.j.h.Stop(0)
			t.Errorf("job not done 30 s after the case's checks; events %v", c.j.events())
		}
	}
	args := []string{"-m", c.marker, "-w", strconv.Itoa(spec.wait)}
	for _, p := range ports {
		args = append(args, "-p", strconv.Itoa(p))
	}
	if code, out := testkit.CheckLeftovers(t, dir, args...); code != 0 {
		t.Errorf("check-leftovers: exit status %d\n%s", code, out)
	}
}

// checkGeneric waits for the job to end by itself (cases are bounded) or
// stops it after 15 s.
func checkGeneric(c *procCase) {
	if !c.j.waitDone(15 * time.Second) {
		_ = c.j.h.Stop(2 * time.Second)
	}
}

// exitWith asserts the job ends by itself with want and stderr holding
// errText.
func exitWith(want model.Exit, errText string) func(c *procCase) {
	return func(c *procCase) {
		c.j.mustDone(15 * time.Second)
		ev, _ := c.j.exit()
		if ev.Exit != want {
			c.t.Errorf("exit %v, want %v; stderr %q", ev.Exit, want, c.j.errOut.text())
		}
		if !strings.Contains(c.j.errOut.text(), errText) {
			c.t.Errorf("stderr %q lacks %q", c.j.errOut.text(), errText)
		}
	}
}

var caseSpecs = map[string][]caseSpec{
	"01": {
		// exec: the script is the leader (as the case's EXPECTED assumes).
		{name: "exec", exec: true, needs: []string{"python3"}, check: checkIgnoreTerm(model.Exit{Signal: int(syscall.SIGKILL)})},
		// eval wrapper: the leader is bash evaluating the command; its trap
		// waits for the script, which ignores SIGTERM, so the job lives on
		// until SIGKILL like the script itself.
		{name: "eval", needs: []string{"python3"}, check: checkIgnoreTerm(model.Exit{Signal: int(syscall.SIGKILL)})},
	},
	"03": {
		{name: "cgroup", needs: []string{"python3", "node"}, check: checkEscape},
		{name: "pty", tty: true, needs: []string{"python3", "node"}, check: checkEscape},
	},
	"06": {
		{name: "pipe", check: checkLeaderExits},
		{name: "pty", tty: true, check: checkLeaderExits},
	},
	"07": {{needs: []string{"python3", "node"}, ports: 2, check: func(c *procCase) {
		c.j.mustOut(fmt.Sprintf("READY listening on 127.0.0.1:%d", c.ports[0]), 15*time.Second)
		if err := c.j.h.Stop(2 * time.Second); err != nil {
			c.t.Fatal(err)
		}
		c.j.mustDone(5 * time.Second)
	}}},
	"13": exitCodeSpecs(),
	"14": {
		{name: "SEGV-direct", args: []string{"SEGV"}, exec: true, needs: []string{"python3"}, check: exitWith(model.Exit{Signal: int(syscall.SIGSEGV)}, "")},
		{name: "KILL-direct", args: []string{"KILL"}, exec: true, needs: []string{"python3"}, check: exitWith(model.Exit{Signal: int(syscall.SIGKILL)}, "")},
		{name: "ABRT-direct", args: []string{"ABRT"}, exec: true, needs: []string{"python3"}, check: exitWith(model.Exit{Signal: int(syscall.SIGABRT)}, "")},
		{name: "TERM-direct", args: []string{"TERM"}, exec: true, needs: []string{"python3"}, check: exitWith(model.Exit{Signal: int(syscall.SIGTERM)}, "")},
		{name: "PIPE-direct", args: []string{"PIPE"}, exec: true, needs: []string{"python3"}, check: exitWith(model.Exit{Signal: int(syscall.SIGPIPE)}, "")},
		{name: "SEGV-via-shell", args: []string{"SEGV", "--via-shell"}, needs: []string{"python3"}, check: exitWith(model.Exit{Code: 139}, "Segmentation fault")},
		// Without exec it is still one simple command: the wrapper execs the
		// script, which execs python.
		{name: "SEGV-eval", args: []string{"SEGV"}, needs: []string{"python3"}, check: exitWith(model.Exit{Signal: int(syscall.SIGSEGV)}, "")},
	},
	"15": {
		{name: "notfound", args: []string{"notfound"}, emit: true, check: exitWith(model.Exit{Code: 127}, "pcase15-no-such-command: command not found")},
		{name: "noexec", args: []string{"noexec"}, emit: true, check: exitWith(model.Exit{Code: 126}, "/etc/passwd: Permission denied")},
		{name: "isdir", args: []string{"isdir"}, emit: true, check: exitWith(model.Exit{Code: 126}, "/tmp: Is a directory")},
		{name: "badflag", args: []string{"badflag"}, emit: true, check: exitWith(model.Exit{Code: 2}, "unrecognized option '--pcase15-bogus-flag'")},
		{name: "nofile", args: []string{"nofile"}, emit: true, check: exitWith(model.Exit{Code: 1}, "cat: /nonexistent/pcase15: No such file or directory")},
		{name: "syntax", args: []string{"syntax"}, emit: true, check: exitWith(model.Exit{Code: 2}, "syntax error near unexpected token")},
		{name: "badcd", args: []string{"badcd"}, emit: true, check: exitWith(model.Exit{Code: 1}, "cd: /nonexistent/pcase15: No such file or directory")},
	},
	"18": {
		{name: "short-finish", args: []string{"short"}, check: func(c *procCase) {
			c.j.mustDone(60 * time.Second)
			if ev, _ := c.j.exit(); ev.Exit != (model.Exit{}) || !strings.HasSuffix(c.j.out.text(), "DONE\n") || c.j.out.bytes() < 400_000_000 {
				c.t.Errorf("exit %v after %d bytes, tail %q", ev.Exit, c.j.out.bytes(), tailOf(c.j.out.text(), 40))
			}
		}},
		{name: "mixed-killed-pty", args: []string{"mixed"}, tty: true, check: func(c *procCase) {
			testkit.Poll(10*time.Second, func() bool { return c.j.out.bytes() > 1<<20 && c.j.errOut.bytes() > 1<<20 })
			stopAt := time.Now()
			if err := c.j.h.Stop(2 * time.Second); err != nil {
				c.t.Fatal(err)
			}
			empty := c.j.mustEvent(EventEmpty, 5*time.Second)
			if took := empty.Time.Sub(stopAt); took > 2*time.Second {
				c.t.Errorf("killing a flood took %v", took)
			}
		}},
	},
	"19": {{check: func(c *procCase) {
		c.j.mustDone(30 * time.Second)
		want := int64(len(c.marker+" BEFORE\n") + 50_000_000 + 1 + len(c.marker+" AFTER\n") + 5_000_000)
		if ev, _ := c.j.exit(); ev.Exit != (model.Exit{}) || c.j.out.bytes() != want {
			c.t.Errorf("exit %v after %d bytes, want exited 0 after %d", ev.Exit, c.j.out.bytes(), want)
		}
	}}},
	"20": {{tty: true, check: func(c *procCase) {
		if !c.j.waitOut(c.marker+" prompt> ", 2*time.Second) {
			c.t.Errorf("the prompt without newline did not arrive while the job ran: %q", c.j.out.text())
		}
		c.j.mustDone(10 * time.Second)
		if got, want := c.j.out.text(), c.marker+" prompt> answer\ntail-without-newline"; got != want {
			c.t.Errorf("output %q, want %q", got, want)
		}
	}}},
	"21": {{tty: true, check: func(c *procCase) {
		// ~3.5 s of sleeps and 150 forks: 30 s holds on two busy cores.
		c.j.mustDone(30 * time.Second)
		for _, w := range []string{"download [##########] 100%\n", "\r\x1b[2Kbuilt\n", "crlf line 1\r\ncrlf line 2\r\n", c.marker + " DONE\n"} {
			if !strings.Contains(c.j.out.text(), w) {
				c.t.Errorf("raw output lacks %q", w)
			}
		}
	}}},
	"23": {{tty: true, check: exitWithOut(func(c *procCase) string { return c.marker + " [OSC52 clipboard (BEL)] >>" })}},
	"24": {{check: exitWithOut(func(c *procCase) string { return c.marker + " DONE\n" })}},
	"26": {
		{name: "pipe", check: checkStdinTTY},
		{name: "pty", tty: true, check: checkStdinTTY},
	},
	"29": {{check: func(c *procCase) {
		c.j.mustDone(10 * time.Second)
		assertOrdered(c.t, c.j.out.text(), "OUT", 10, 200)
		assertOrdered(c.t, c.j.errOut.text(), "ERR", 10, 200)
	}}},
	"34": {
		{needs: []string{"python3", "node"}, ports: 1, wait: 4, noJob: true, check: checkConsoleCrash},
	},
	"36": {{emit: true, check: func(c *procCase) {
		c.j.mustDone(10 * time.Second)
		ev, _ := c.j.exit()
		if ev.Exit != (model.Exit{}) || !strings.Contains(c.j.out.text(), "pcase-36 survived pkill\n") || !strings.Contains(c.j.out.text(), "pcase-36 DONE\n") {
			c.t.Errorf("exit %v, output %q", ev.Exit, c.j.out.text())
		}
	}}},
}

// exitWithOut asserts exited 0 with stdout holding want(c).
func exitWithOut(want func(*procCase) string) func(c *procCase) {
	return func(c *procCase) {
		c.j.mustDone(10 * time.Second)
		if ev, _ := c.j.exit(); ev.Exit != (model.Exit{}) {
			c.t.Errorf("exit %v, want exited 0; stderr %q", ev.Exit, c.j.errOut.text())
		}
		if w := want(c); !strings.Contains(c.j.out.text(), w) {
			c.t.Errorf("stdout lacks %q", w)
		}
	}
}

func exitCodeSpecs() []caseSpec {
	var specs []caseSpec
	for _, n := range []int{0, 1, 2, 3, 42, 126, 127, 255, 256, 300, -1} {
		want := ((n % 256) + 256) % 256
		specs = append(specs, caseSpec{name: strconv.Itoa(n), args: []string{strconv.Itoa(n)}, check: func(c *procCase) {
			exitWith(model.Exit{Code: want}, "")(c)
			if !strings.Contains(c.j.out.text(), fmt.Sprintf("exiting with %d", n)) {
				c.t.Errorf("the short-lived job's line is missing: %q", c.j.out.text())
			}
		}})
	}
	return specs
}

// checkIgnoreTerm: case 01 with a 1 s grace: the TERM handlers' lines
// arrive, SIGKILL follows the grace, the leader ends as want.
func checkIgnoreTerm(want model.Exit) func(c *procCase) {
	return func(c *procCase) {
		c.j.mustOut("READY", 10*time.Second)
		// python (through a pyenv shim, on a loaded machine) may take longer
		// than the script's 0.3 s to install its handler.
		if !testkit.Poll(10*time.Second, func() bool { return testkit.Catches(c.marker+"-py-catcher", syscall.SIGTERM) }) {
			c.t.Fatal("the python catcher never installed its SIGTERM handler")
		}
		const grace = time.Second
		stopAt := time.Now()
		if err := c.j.h.Stop(grace); err != nil {
			c.t.Fatal(err)
		}
		empty := c.j.mustEvent(EventEmpty, grace+5*time.Second)
		took := empty.Time.Sub(stopAt)
		c.t.Logf("case 01, grace %v: Stop -> EventEmpty %v; TERM to %d, KILL to %d", grace, took, c.j.signalled(syscall.SIGTERM), c.j.signalled(syscall.SIGKILL))
		if took < grace || took > grace+2*time.Second {
			c.t.Errorf("kill took %v, want grace + < 2 s", took)
		}
		if c.j.signalled(syscall.SIGKILL) < 3 {
			c.t.Errorf("SIGKILL to %d processes, want >= 3", c.j.signalled(syscall.SIGKILL))
		}
		c.j.mustDone(5 * time.Second)
		for _, w := range []string{"leader: got SIGTERM, ignoring", "caught signal 15, carrying on"} {
			if !strings.Contains(c.j.out.text(), w) {
				c.t.Errorf("output lacks %q:\n%s", w, c.j.out.text())
			}
		}
		if ev, _ := c.j.exit(); ev.Exit != want {
			c.t.Errorf("exit %v, want %v", ev.Exit, want)
		}
	}
}

// checkEscape: all 7 escapees die on SIGTERM within the grace.
func checkEscape(c *procCase) {
	c.j.mustOut("READY", 15*time.Second)
	stopAt := time.Now()
	if err := c.j.h.Stop(3 * time.Second); err != nil {
		c.t.Fatal(err)
	}
	empty := c.j.mustEvent(EventEmpty, 8*time.Second)
	c.t.Logf("case 03: Stop -> EventEmpty %v, TERM to %d", empty.Time.Sub(stopAt), c.j.signalled(syscall.SIGTERM))
	if n := c.j.signalled(syscall.SIGKILL); n != 0 || empty.Time.Sub(stopAt) > 3*time.Second {
		c.t.Errorf("SIGKILL to %d processes, stop took %v: want all dead on SIGTERM", n, empty.Time.Sub(stopAt))
	}
}

// checkLeaderExits: exit 0 reported at once with processes still running,
// ticks keep coming, the stop ends them.
func checkLeaderExits(c *procCase) {
	ev := c.j.mustEvent(EventExit, 10*time.Second)
	if ev.Exit != (model.Exit{}) || ev.Remaining < 1 {
		c.t.Errorf("exit event %+v, want exited 0 with processes remaining", ev)
	}
	if !c.j.waitOut("bg tick 3", 5*time.Second) {
		c.t.Errorf("ticks stopped after the leader's exit: %q", c.j.out.text())
	}
	if err := c.j.h.Stop(2 * time.Second); err != nil {
		c.t.Fatal(err)
	}
	c.j.mustDone(5 * time.Second)
}

// checkStdinTTY: stdin is at EOF at once and /dev/tty cannot be used.
func checkStdinTTY(c *procCase) {
	c.j.mustDone(12 * time.Second)
	out := c.j.out.text()
	for _, w := range []string{"stdin is: /dev/null", "read rc=1 got=[]", "open /dev/tty for write: FAILED", "read from /dev/tty: FAILED", c.marker + " DONE"} {
		if !strings.Contains(out, w) {
			c.t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// checkConsoleCrash runs the case under a fake jobdeck, SIGKILLs that once
// the job is READY, and expects everything gone within grace + 2 s (the
// leftover check that follows waits for it).
func checkConsoleCrash(c *procCase) {
	h := startFakeJobdeck(c.t, "bash "+shellQuote(c.script), c.marker, time.Second,
		append([]string{"PROC_CASE_MARKER=" + c.marker, "PROC_CASE_LIFE=20"}, c.env...)...)
	h.waitLine("READY", 20*time.Second)
	killedAt := time.Now()
	h.kill()
	gone := testkit.Poll(10*time.Second, func() bool { return len(testkit.Marked(c.marker)) == 0 })
	took := time.Since(killedAt)
	c.t.Logf("case 34, grace 1s: jobdeck SIGKILL -> tree gone after %v", took)
	if !gone || took > 3*time.Second {
		c.t.Errorf("tree gone %v after %v; want within grace + 2 s", gone, took)
	}
}

// assertOrdered checks that "<prefix> i" for i in 1..slow and
// "<prefix> burst i" for i in 1..burst appear in order.
func assertOrdered(t *testing.T, text, prefix string, slow, burst int) {
	t.Helper()
	var want []string
	for i := 1; i <= slow; i++ {
		want = append(want, fmt.Sprintf("%s %d", prefix, i))
	}
	for i := 1; i <= burst; i++ {
		want = append(want, fmt.Sprintf("%s burst %d", prefix, i))
	}
	var got []string
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, prefix+" ") {
			got = append(got, line)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s lines out of order or missing: got %d lines, want %d", prefix, len(got), len(want))
	}
}

// fakeJobdeck is a helper process standing in for jobdeck.
type fakeJobdeck struct {
	t     *testing.T
	cmd   *exec.Cmd
	lines chan string
}

// startFakeJobdeck runs the test binary as a fake jobdeck that starts
// command as a job (with a pty) and copies its output to us.
func startFakeJobdeck(t *testing.T, command, session string, grace time.Duration, env ...string) *fakeJobdeck {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), helperEnv+"=fakejobdeck", "SUPTEST_CMD="+command, "SUPTEST_SESSION="+session,
		"SUPTEST_GRACE_MS="+strconv.Itoa(int(grace/time.Millisecond)), "SUPTEST_TTY=1",
		"TEST_MARK="+session, "TESTDATA="+testdataDir(t), "SUPTEST_EXE="+exe)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f := &fakeJobdeck{t: t, cmd: cmd, lines: make(chan string, 1024)}
	go func() {
		defer close(f.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case f.lines <- sc.Text():
			default:
			}
		}
	}()
	t.Cleanup(f.kill)
	return f
}

// waitLine waits for an output line containing s.
func (f *fakeJobdeck) waitLine(s string, d time.Duration) {
	f.t.Helper()
	timeout := time.After(d)
	for {
		select {
		case line, ok := <-f.lines:
			if !ok {
				f.t.Fatalf("fake jobdeck ended before printing %q", s)
			}
			if strings.Contains(line, "HELPER-ERROR") {
				f.t.Fatal(line)
			}
			if strings.Contains(line, s) {
				return
			}
		case <-timeout:
			f.t.Fatalf("fake jobdeck printed no %q within %v", s, d)
		}
	}
}

// kill SIGKILLs the fake jobdeck (through its pidfd-backed os.Process) and
// reaps it. Idempotent.
func (f *fakeJobdeck) kill() {
	if f.cmd.ProcessState != nil {
		return
	}
	_ = f.cmd.Process.Kill()
	_ = f.cmd.Wait()
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+-]+$`)

// shellQuote quotes s for bash.
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func tailOf(s string, n int) string { return s[max(0, len(s)-n):] }
