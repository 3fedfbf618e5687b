package jobs

import (
	"bytes"
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/model"
)

// The tests in this file run the adversarial scripts of ../shared/cases/proc
// (next to the repository; present in CI, absent on a user's machine) as
// jobs through the jobs API, check what each one's EXPECTED header says, and
// then require check-leftovers.sh to exit 0. The project's own tests
// (table_test.go, and supervisor's testdata) cover the same kinds without
// ../shared.

func TestSharedCases(t *testing.T) {
	dir := testkit.ProcCases(t)
	tb := newTable(t, Options{Grace: new(2 * time.Second)})
	// For the cases whose commands die at once and are checked in the
	// start report.
	quick := newTable(t, Options{Grace: new(2 * time.Second), StartWait: deathWait})

	t.Run("01-ignore-sigterm", func(t *testing.T) {
		needTools(t, "python3")
		t.Parallel()
		c := newProcCase(t, tb, dir)
		c.start(model.Spec{Command: c.script("01-ignore-sigterm.sh")})
		c.waitLine(`pcase-\S+ READY`, 10*time.Second)
		// python (a pyenv shim on a loaded machine) may take longer than
		// the script's 0.3 s to install its SIGTERM handler.
		waitFor(t, 10*time.Second, "the python catcher's handler", func() bool { return testkit.Catches(c.marker+"-py-catcher", syscall.SIGTERM) })
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
		port := testkit.FreePorts(t, 2)[0]
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
		c := newProcCase(t, quick, dir)
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
		c := newProcCase(t, quick, dir)
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
				// The last line of stdout is DONE. The two streams keep
				// their own order but interleave only as their reads did,
				// so in mixed mode the flood's last stderr lines may come
				// after it, even all of the ring's 2000; then the count,
				// exact there (2 × 50,000,000 lines and DONE), shows
				// nothing was lost.
				var last model.Line
				for _, l := range r.Page.Lines {
					if l.Stream == model.StreamOut {
						last = l
					}
				}
				doneSeen := strings.HasSuffix(string(last.Text), "DONE") || (mode == "mixed" && last.Seq == 0)
				if mode == "mixed" && r.Job.Lines != 100_000_001 {
					t.Errorf("mixed tty=%v: %d lines, want 100000001", !notty, r.Job.Lines)
				}
				if r.Job.Exit == nil || r.Job.Exit.Code != 0 || !doneSeen || r.Job.Lines < 20_000_000 {
					t.Errorf("%s tty=%v: exit %v, %d lines, last of stdout %q", mode, !notty, r.Job.Exit, r.Job.Lines, last.Text)
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
		// ~3.5 s of sleeps and 150 forks: 30 s holds on two busy cores.
		r := c.waitDone(30 * time.Second)
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
		// Lines 20 ms apart on two pipes come out in the order written only
		// when both readers run within 20 ms, which a loaded machine does
		// not promise: the slow part must be in order in one of three
		// runs; marking and per-stream order must be exact in every run.
		var slow []string
		for try := 0; try < 3; try++ {
			order := interleaveCase(t, newProcCase(t, tb, dir))
			if strings.HasPrefix(order, "OUT 1,ERR 1,OUT 2,ERR 2,OUT 3,ERR 3") {
				slow = nil
				break
			}
			slow = append(slow, order)
		}
		if len(slow) > 0 {
			t.Errorf("slow part out of order in every run: %s", strings.Join(slow, " | "))
		}
	})

	t.Run("34-console-crash", func(t *testing.T) {
		needTools(t, "python3", "node", "setsid")
		runConsoleCrash(t, dir, "pcase-34", testkit.FreePorts(t, 1)[0])
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
