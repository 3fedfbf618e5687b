package jobs

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jobdeck/jobdeck/model"
)

// The tests in this file run the adversarial scripts of ../shared/cases/proc
// (next to the repository; present in CI, absent on a user's machine) as
// jobs through the jobs API, check what each one's EXPECTED header says, and
// then require check-leftovers.sh to exit 0. The project's own tests
// (table_test.go, and supervisor's testdata) cover the same kinds without
// ../shared.

// casesDir finds ../shared/cases/proc from the module root, or skips.
func casesDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("JOBDECK_CASES"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("cannot find the module root")
		}
		dir = parent
	}
	cases := filepath.Join(dir, "..", "shared", "cases", "proc")
	if _, err := os.Stat(filepath.Join(cases, "check-leftovers.sh")); err != nil {
		t.Skipf("../shared/cases/proc is not next to the repository (it is in CI); skipping the shared adversarial cases: %v", err)
	}
	return cases
}

// procCase runs one case script as a job.
type procCase struct {
	t      *testing.T
	tb     *Table
	dir    string
	marker string
	id     model.JobID
}

func newProcCase(t *testing.T, tb *Table, dir string) *procCase {
	return &procCase{t: t, tb: tb, dir: dir, marker: fmt.Sprintf("pcase-jd%d-%s", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-"))}
}

// start runs `bash <script> args…` (or, with raw, the given command text)
// with this test's marker.
func (c *procCase) start(spec model.Spec) model.Report {
	c.t.Helper()
	spec.Command = "export PROC_CASE_MARKER=" + c.marker + "; " + spec.Command
	r := start(c.t, c.tb, spec)
	c.id = r.Job.ID
	return r
}

func (c *procCase) script(name string, args ...string) string {
	return "bash " + filepath.Join(c.dir, name) + " " + strings.Join(args, " ")
}

// emit returns the command text a case prints with --emit-command.
func (c *procCase) emit(name string, args ...string) string {
	c.t.Helper()
	out, err := exec.Command("bash", append([]string{filepath.Join(c.dir, name), "--emit-command"}, args...)...).Output()
	if err != nil {
		c.t.Fatal(err)
	}
	return strings.TrimRight(string(out), "\n")
}

// waitLine waits for a line matching re.
func (c *procCase) waitLine(re string, d time.Duration) model.Report {
	c.t.Helper()
	r, err := c.tb.Status(c.t.Context(), c.id, model.StatusOptions{Wait: d, Until: re, Lines: 2000, HasSince: true})
	if err != nil {
		c.t.Fatal(err)
	}
	if r.Wait.Reason != model.WaitMatched {
		c.t.Fatalf("no line matching %q within %v (%v):\n%s", re, d, r.Wait.Reason, plainText(r))
	}
	return r
}

// waitDone waits until the job is done and returns its full report.
func (c *procCase) waitDone(d time.Duration) model.Report {
	c.t.Helper()
	waitFor(c.t, d, "job to finish", func() bool { return snap(c.t, c.tb, c.id).Done })
	r, err := c.tb.Status(c.t.Context(), c.id, model.StatusOptions{Lines: 2000})
	if err != nil {
		c.t.Fatal(err)
	}
	return r
}

func (c *procCase) kill(grace time.Duration) (model.Report, time.Duration) {
	c.t.Helper()
	t0 := time.Now()
	r, err := c.tb.Kill(c.t.Context(), c.id, model.KillOptions{Grace: &grace})
	if err != nil {
		c.t.Fatal(err)
	}
	return r, time.Since(t0)
}

// checkLeftovers runs the shared checker with this test's marker.
func (c *procCase) checkLeftovers(wait int, ports ...int) {
	c.t.Helper()
	args := []string{filepath.Join(c.dir, "check-leftovers.sh"), "-m", c.marker, "-x", fmt.Sprint(os.Getpid()), "-w", fmt.Sprint(wait)}
	for _, p := range ports {
		args = append(args, "-p", fmt.Sprint(p))
	}
	out, err := exec.Command("bash", args...).CombinedOutput()
	if err != nil {
		c.t.Errorf("check-leftovers: %v\n%s", err, out)
	}
}

func wantLines(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("report lacks %q:\n%s", w, text)
		}
	}
}

func TestSharedCases(t *testing.T) {
	dir := casesDir(t)
	tb := newTable(t, Options{Grace: new(2 * time.Second)})

	t.Run("01-ignore-sigterm", func(t *testing.T) {
		needTools(t, "python3")
		t.Parallel()
		c := newProcCase(t, tb, dir)
		c.start(model.Spec{Command: c.script("01-ignore-sigterm.sh")})
		c.waitLine(`pcase-\S+ READY`, 10*time.Second)
		// python (a pyenv shim on a loaded machine) may take longer than
		// the script's 0.3 s to install its SIGTERM handler.
		waitFor(t, 10*time.Second, "the python catcher's handler", func() bool { return catches(c.marker+"-py-catcher", syscall.SIGTERM) })
		r, took := c.kill(2 * time.Second)
		wantLines(t, plainText(r), "got SIGTERM, ignoring", "caught signal 15, carrying on")
		if r.Job.Exit == nil || r.Job.Exit.Signal != int(syscall.SIGKILL) || r.Job.Stop.KillSent < 3 {
			t.Errorf("want killed by SIGKILL with ≥ 3 processes killed: %v %+v", r.Job.Exit, r.Job.Stop)
		}
		if took < 2*time.Second || took > 4*time.Second {
			t.Errorf("kill took %v, want the 2 s grace + < 0.5 s (coarse bound 4 s)", took)
		}
		c.checkLeftovers(3)
	})

	t.Run("03-setsid-escape", func(t *testing.T) {
		needTools(t, "python3", "node", "setsid")
		t.Parallel()
		c := newProcCase(t, tb, dir)
		c.start(model.Spec{Command: c.script("03-setsid-escape.sh")})
		c.waitLine(`READY`, 15*time.Second)
		r, took := c.kill(5 * time.Second)
		if r.Job.Stop.KillSent != 0 || took > 4*time.Second {
			t.Errorf("all escapees die on SIGTERM: KillSent %d, took %v\n%s", r.Job.Stop.KillSent, took, plainText(r))
		}
		c.checkLeftovers(3)
	})

	t.Run("06-leader-exits-bg-holds-pipe", func(t *testing.T) {
		t.Parallel()
		c := newProcCase(t, tb, dir)
		c.start(model.Spec{Command: c.script("06-leader-exits-bg-holds-pipe.sh")})
		waitFor(t, 2*time.Second, "exited 0 with 1 still running", func() bool {
			s := snap(t, tb, c.id)
			return s.Exit != nil && s.Exit.Code == 0 && s.Remaining >= 1
		})
		n := snap(t, tb, c.id).Lines
		waitFor(t, 4*time.Second, "ticks after the exit", func() bool { return snap(t, tb, c.id).Lines >= n+2 })
		r, _ := c.kill(2 * time.Second)
		wantLines(t, plainText(r), "bg tick")
		if !r.Job.Done || r.Job.Remaining != 0 {
			t.Errorf("after kill: %+v", r.Job)
		}
		c.checkLeftovers(3)
	})

	t.Run("07-port-holder", func(t *testing.T) {
		needTools(t, "python3", "node", "setsid", "ss")
		c := newProcCase(t, tb, dir)
		port := freePorts(t, 2)
		for round := range 2 {
			c.start(model.Spec{Command: fmt.Sprintf("PROC_CASE_PORT=%d %s", port, c.script("07-port-holder.sh"))})
			c.waitLine(`READY`, 15*time.Second)
			c.kill(2 * time.Second)
			out, _ := exec.Command("ss", "-Hltn", fmt.Sprintf("( sport = :%d or sport = :%d )", port, port+1)).Output()
			if len(bytes.TrimSpace(out)) > 0 {
				t.Fatalf("round %d: still listening after the kill:\n%s", round, out)
			}
		}
		c.checkLeftovers(3, port, port+1)
	})

	t.Run("13-exit-code", func(t *testing.T) {
		t.Parallel()
		c := newProcCase(t, tb, dir)
		for n, want := range map[string]int{"0": 0, "1": 1, "3": 3, "42": 42, "126": 126, "127": 127, "255": 255, "256": 0, "300": 44, "-1": 255} {
			r := c.start(model.Spec{Command: c.script("13-exit-code.sh", n)})
			if r.Job.Exit == nil || r.Job.Exit.Signaled() || r.Job.Exit.Code != want {
				t.Errorf("exit %s: got %v, want exited %d", n, r.Job.Exit, want)
			}
			wantLines(t, plainText(r), "exiting with "+n)
		}
		c.checkLeftovers(1)
	})

	t.Run("14-signal-death", func(t *testing.T) {
		needTools(t, "python3")
		t.Parallel()
		c := newProcCase(t, tb, dir)
		// The leader is always bash evaluating the command (which keeps the
		// command out of every argv, see case 36), so a command killed by a
		// signal shows as bash's 128+n, with the signal named.
		for _, sig := range []struct {
			name string
			n    int
		}{{"SEGV", 11}, {"KILL", 9}, {"ABRT", 6}, {"TERM", 15}} {
			for _, mode := range []string{"", "--via-shell"} {
				c.start(model.Spec{Command: c.script("14-signal-death.sh", sig.name, mode)})
				r := c.waitDone(10 * time.Second)
				e := r.Job.Exit
				if e == nil || e.ShellCode() != 128+sig.n {
					t.Errorf("%s %s: exit %v, want 128+%d", sig.name, mode, e, sig.n)
					continue
				}
				if !strings.Contains(plainText(r), "SIG"+sig.name) {
					t.Errorf("%s %s: the report does not name the signal:\n%s", sig.name, mode, plainText(r))
				}
				if fs, ok := r.Job.ForeignSignal(); sig.n == 9 && (!ok || fs.Signal != 9) {
					t.Errorf("a SIGKILL jobdeck did not send must be said:\n%s", plainText(r))
				}
			}
		}
		c.checkLeftovers(1)
	})

	t.Run("15-fail-fast", func(t *testing.T) {
		t.Parallel()
		c := newProcCase(t, tb, dir)
		for _, m := range []struct {
			mode, stderr string
			code         int
		}{
			{"notfound", "pcase15-no-such-command: command not found", 127},
			{"noexec", "/etc/passwd: Permission denied", 126},
			{"isdir", "/tmp: Is a directory", 126},
			{"badflag", "unrecognized option '--pcase15-bogus-flag'", 2},
			{"nofile", "cat: /nonexistent/pcase15: No such file or directory", 1},
			{"syntax", "syntax error near unexpected token", 2},
			{"badcd", "cd: /nonexistent/pcase15: No such file or directory", 1},
		} {
			r := c.start(model.Spec{Command: c.emit("15-fail-fast.sh", m.mode)})
			if r.Job.Exit == nil || r.Job.Exit.Code != m.code || !r.Job.Done {
				t.Errorf("%s: %v done %v, want exited %d in the start report", m.mode, r.Job.Exit, r.Job.Done, m.code)
			}
			if !regexp.MustCompile(`(?m)^! .*` + regexp.QuoteMeta(m.stderr)).MatchString(plainText(r)) {
				t.Errorf("%s: stderr %q not marked in:\n%s", m.mode, m.stderr, plainText(r))
			}
		}
		c.checkLeftovers(1)
	})

	t.Run("18-flood", func(t *testing.T) {
		c := newProcCase(t, tb, dir)
		for _, mode := range []string{"short", "mixed"} {
			for _, notty := range []bool{false, true} {
				c.start(model.Spec{Command: c.script("18-flood.sh", mode), NoTTY: notty})
				r := c.waitDone(90 * time.Second)
				last := r.Page.Lines[len(r.Page.Lines)-1]
				if r.Job.Exit == nil || r.Job.Exit.Code != 0 || !strings.HasSuffix(string(last.Text), "DONE") || r.Job.Lines < 20_000_000 {
					t.Errorf("%s tty=%v: exit %v, %d lines, last %q", mode, !notty, r.Job.Exit, r.Job.Lines, last.Text)
				}
			}
		}
		// Killed 2 s in: dies within the grace although it is blocked
		// writing, since the pipes keep being drained.
		c.start(model.Spec{Command: c.script("18-flood.sh", "wide")})
		time.Sleep(2 * time.Second) // let it flood: the subject of the test
		r, took := c.kill(2 * time.Second)
		if took > 3*time.Second || r.Job.Stop.KillSent != 0 {
			t.Errorf("killing a flood took %v (SIGKILL to %d)", took, r.Job.Stop.KillSent)
		}
		c.checkLeftovers(3)
	})

	t.Run("19-huge-line", func(t *testing.T) {
		t.Parallel()
		c := newProcCase(t, tb, dir)
		c.start(model.Spec{Command: c.script("19-huge-line.sh")})
		r := c.waitDone(30 * time.Second)
		texts := lineTexts(r.Page)
		if len(texts) != 4 || !strings.HasSuffix(texts[0], "BEFORE") || !strings.HasSuffix(texts[2], "AFTER") {
			t.Fatalf("lines: %d %q…", len(texts), texts[0])
		}
		if l := r.Page.Lines[1]; len(l.Text) != LineCap || l.Dropped != 50_000_000-LineCap {
			t.Errorf("50 MB line: kept %d dropped %d", len(l.Text), l.Dropped)
		}
		if l := r.Page.Lines[3]; len(l.Text) != LineCap || l.Dropped != 5_000_000-LineCap || l.Text[0] != 'z' {
			t.Errorf("final fragment: kept %d dropped %d", len(l.Text), l.Dropped)
		}
		c.checkLeftovers(1)
	})

	t.Run("20-no-newline", func(t *testing.T) {
		t.Parallel()
		c := newProcCase(t, tb, dir)
		c.start(model.Spec{Command: c.script("20-no-newline.sh")})
		waitFor(t, time.Second, "the prompt as the open line", func() bool {
			p, _ := tb.Read(c.id, model.ReadRequest{})
			return len(p.Partial) == 1 && strings.HasSuffix(string(p.Partial[0].Text), "prompt> ")
		})
		r := c.waitDone(10 * time.Second)
		if got := lineTexts(r.Page); len(got) != 2 || !strings.HasSuffix(got[0], "prompt> answer") || got[1] != "tail-without-newline" {
			t.Errorf("lines %q", got)
		}
		c.checkLeftovers(1)
	})

	t.Run("21-progress-cr", func(t *testing.T) {
		t.Parallel()
		c := newProcCase(t, tb, dir)
		c.start(model.Spec{Command: c.script("21-progress-cr.sh")})
		r := c.waitDone(15 * time.Second)
		want := "> download [##########] 100%\n> built\n> crlf line 1\n> crlf line 2\n> " + c.marker + " DONE\n"
		if !strings.HasSuffix(plainText(r), want) || r.Job.Exit.Code != 0 {
			t.Errorf("report:\n%s\nwant it to end with:\n%s", plainText(r), want)
		}
		c.checkLeftovers(1)
	})

	t.Run("23-hostile-escapes", func(t *testing.T) {
		t.Parallel()
		c := newProcCase(t, tb, dir)
		c.start(model.Spec{Command: c.script("23-hostile-escapes.sh")})
		r := c.waitDone(10 * time.Second)
		if hasControls(plainText(r)) || !utf8.ValidString(plainText(r)) {
			t.Errorf("escape bytes reach the agent:\n%q", plainText(r))
		}
		if n := strings.Count(plainText(r), c.marker+" ["); n != 39 {
			t.Errorf("%d labelled items, want 39:\n%s", n, plainText(r))
		}
		wantLines(t, plainText(r), "! "+c.marker+" [stderr OSC52+title]", "click me", c.marker+" DONE")
		if strings.Contains(plainText(r), "pwned") || strings.Contains(plainText(r), "cHduZWQ") || strings.Contains(plainText(r), "HACKED") {
			t.Errorf("payloads of dropped sequences leak:\n%s", plainText(r))
		}
		c.checkLeftovers(1)
	})

	t.Run("24-bad-bytes", func(t *testing.T) {
		t.Parallel()
		c := newProcCase(t, tb, dir)
		c.start(model.Spec{Command: c.script("24-bad-bytes.sh")})
		r := c.waitDone(10 * time.Second)
		if !utf8.ValidString(plainText(r)) || hasControls(plainText(r)) {
			t.Errorf("report not clean UTF-8 text:\n%q", plainText(r))
		}
		wantLines(t, plainText(r), "> valid for comparison: café naïve € 😀 日本語", "! invalid on stderr:", c.marker+" DONE")
		if !slices.ContainsFunc(r.Page.Lines, func(l model.Line) bool { return l.Dropped > 0 }) {
			t.Errorf("no line was cut:\n%s", plainText(r))
		}
		c.checkLeftovers(1)
	})

	t.Run("26-stdin-and-tty", func(t *testing.T) {
		t.Parallel()
		c := newProcCase(t, tb, dir)
		for _, notty := range []bool{false, true} {
			c.start(model.Spec{Command: c.script("26-stdin-and-tty.sh"), NoTTY: notty})
			r := c.waitDone(12 * time.Second)
			wantLines(t, plainText(r), "read rc=1 got=[]", "cat done", c.marker+" DONE")
			if notty {
				wantLines(t, plainText(r), "open /dev/tty for write: FAILED")
			}
			if strings.Contains(plainText(r), "stole a line") {
				t.Errorf("the job read a line from a terminal:\n%s", plainText(r))
			}
			if d := r.Job.Ended.Sub(r.Job.Started); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
		}
		c.checkLeftovers(1)
	})

	t.Run("29-stderr-interleave", func(t *testing.T) {
		t.Parallel()
		c := newProcCase(t, tb, dir)
		c.start(model.Spec{Command: c.script("29-stderr-interleave.sh")})
		r := c.waitDone(10 * time.Second)
		var outs, errs []string
		for _, l := range r.Page.Lines {
			s := string(l.Text)
			switch {
			case strings.HasPrefix(s, "OUT"):
				if l.Stream != model.StreamOut {
					t.Errorf("%q marked as %v", s, l.Stream)
				}
				outs = append(outs, s)
			case strings.HasPrefix(s, "ERR"):
				if l.Stream != model.StreamErr {
					t.Errorf("%q marked as %v", s, l.Stream)
				}
				errs = append(errs, s)
			}
		}
		slow := strings.Join(lineTexts(model.Page{Lines: r.Page.Lines[:20]}), ",")
		if !strings.HasPrefix(slow, "OUT 1,ERR 1,OUT 2,ERR 2,OUT 3,ERR 3") {
			t.Errorf("slow part out of order: %s", slow)
		}
		if len(outs) != 210 || len(errs) != 210 || outs[209] != "OUT burst 200" || errs[209] != "ERR burst 200" {
			t.Errorf("per-stream counts/order: %d %d", len(outs), len(errs))
		}
		for i := 1; i <= 200; i++ {
			if outs[9+i] != fmt.Sprintf("OUT burst %d", i) || errs[9+i] != fmt.Sprintf("ERR burst %d", i) {
				t.Fatalf("per-stream order broken at burst %d", i)
			}
		}
		c.checkLeftovers(1)
	})

	t.Run("34-console-crash", func(t *testing.T) {
		needTools(t, "python3", "node", "setsid")
		runConsoleCrash(t, dir, "pcase-34", freePorts(t, 1))
	})

	t.Run("36-pkill-self-match", func(t *testing.T) {
		needTools(t, "pkill")
		t.Parallel()
		c := newProcCase(t, tb, dir)
		r := c.start(model.Spec{Command: c.emit("36-pkill-self-match.sh")})
		r = c.waitDone(10 * time.Second)
		wantLines(t, plainText(r), "pcase-36 survived pkill", "pcase-36 DONE")
		if r.Job.Exit == nil || r.Job.Exit.Code != 0 {
			t.Errorf("exit %v", r.Job.Exit)
		}
		c.checkLeftovers(2)
	})
}

// consoleEnv makes the test binary act as a small console (see
// TestConsoleChild) when set.
const consoleEnv = "JOBDECK_TEST_CONSOLE"

// runConsoleCrash starts a console process that runs case 34, SIGKILLs it
// once the case is READY, and requires every process of the job to be gone
// within grace + 2 s.
func runConsoleCrash(t *testing.T, dir, marker string, port int) {
	marker = fmt.Sprintf("%s-jd%d", marker, os.Getpid())
	cmd := exec.Command(os.Args[0], "-test.run=^TestConsoleChild$")
	cmd.Env = append(os.Environ(), consoleEnv+"="+fmt.Sprintf("export PROC_CASE_MARKER=%s PROC_CASE_PORT=%d; bash %s", marker, port, filepath.Join(dir, "34-console-crash.sh")))
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "CONSOLE READY") {
		if time.Now().After(deadline) {
			t.Fatalf("the console's job was not READY within 20 s; console output:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	killed := time.Now()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	check := exec.Command("bash", filepath.Join(dir, "check-leftovers.sh"), "-m", marker, "-p", fmt.Sprint(port), "-w", "6")
	res, err := check.CombinedOutput()
	if err != nil {
		t.Fatalf("after the console was SIGKILLed: %v\n%s", err, res)
	}
	if d := time.Since(killed); d > 2*time.Second+2*time.Second+time.Second {
		t.Errorf("the tree took %v to go (grace 2 s + 2 s allowed)", d)
	}
}

// TestConsoleChild is the console process of runConsoleCrash; it only runs
// when started by it.
func TestConsoleChild(t *testing.T) {
	command := os.Getenv(consoleEnv)
	if command == "" {
		t.Skip("only runs as the child of a console-crash test")
	}
	tb, err := New(Options{Grace: new(2 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Start(context.Background(), model.Spec{Command: command}); err != nil {
		t.Fatal(err)
	}
	r, _ := tb.Status(context.Background(), 0, model.StatusOptions{Wait: 20 * time.Second, Until: "READY", HasSince: true})
	fmt.Println(plainText(r))
	fmt.Println("CONSOLE READY")
	time.Sleep(time.Minute) // until the parent SIGKILLs this process
}

// hasControls reports whether s holds a byte or rune no reader should get:
// C0 controls other than tab and newline, DEL, or C1 controls.
func hasControls(s string) bool {
	for _, r := range s {
		if (r < 0x20 && r != '\t' && r != '\n') || (r >= 0x7f && r <= 0x9f) {
			return true
		}
	}
	return false
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// freePorts returns the first of n consecutive loopback ports that were free
// a moment ago (the cases' default ports may be taken by another run).
func freePorts(t *testing.T, n int) int {
	t.Helper()
	for range 50 {
		var lns []net.Listener
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		first := ln.Addr().(*net.TCPAddr).Port
		ok := first+n <= 65535
		for i := 1; ok && i < n; i++ {
			l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", first+i))
			if err != nil {
				ok = false
				break
			}
			lns = append(lns, l)
		}
		for _, l := range lns {
			l.Close()
		}
		if ok {
			return first
		}
	}
	t.Fatal("no free ports")
	return 0
}

// catches reports whether a live process whose argv contains name has a
// handler for sig (SigCgt in /proc/<pid>/status).
func catches(name string, sig syscall.Signal) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !strings.Contains(string(cmd), name) {
			continue
		}
		status, _ := os.ReadFile("/proc/" + e.Name() + "/status")
		m := regexp.MustCompile(`SigCgt:\s*([0-9a-f]+)`).FindSubmatch(status)
		if m == nil {
			continue
		}
		if mask, err := strconv.ParseUint(string(m[1]), 16, 64); err == nil && mask&(1<<(uint(sig)-1)) != 0 {
			return true
		}
	}
	return false
}
