//go:build linux

package supervisor

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/internal/testtimeout"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
)

func TestStartRejectsBadConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cfg  Config
		want error
		text string
	}{
		{"blank", Config{Command: " \n\t", Dir: dir}, ErrBadCommand, "blank"},
		{"too long", Config{Command: strings.Repeat("x", model.MaxCommandBytes+1), Dir: dir}, ErrBadCommand, "limit"},
		{"nul", Config{Command: "echo a\x00b", Dir: dir}, ErrBadCommand, "NUL"},
		{"missing dir", Config{Command: "true", Dir: filepath.Join(dir, "nope")}, ErrBadDir, "does not exist"},
		{"file as dir", Config{Command: "true", Dir: file}, ErrBadDir, "not a directory"},
		{"bad session", Config{Command: "true", Dir: dir, Session: "a/b"}, ErrBadConfig, "session"},
		{"huge pty", Config{Command: "true", Dir: dir, TTY: true, Rows: 70000}, ErrBadConfig, "pty size"},
		{"nul in env", Config{Command: "true", Dir: dir, Env: []string{"A=b\x00c"}}, ErrBadConfig, "NUL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := Start(tc.cfg)
			if h != nil {
				t.Fatal("Start returned a handle for a bad config")
			}
			var se *StartError
			if !errors.As(err, &se) || !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("Start: %v; want a *StartError wrapping %v mentioning %q", err, tc.want, tc.text)
			}
		})
	}
}

func TestStartFailsInSupervisor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name string
		cfg  Config
		want error
		text string
	}{
		{"no bash in PATH", Config{Command: "true", Dir: dir, Env: []string{"PATH=" + dir}}, ErrNoShell, "bash is not in the job's PATH"},
		{"supervisor binary is not one", Config{Command: "true", Dir: dir, Exe: "/bin/true"}, ErrSupervisor, "exited before starting"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Start(tc.cfg)
			var se *StartError
			if !errors.As(err, &se) || !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("Start: %v; want a *StartError wrapping %v mentioning %q", err, tc.want, tc.text)
			}
		})
	}
}

// TestExitStatus: the status comes from wait4 of the leader: codes mod 256,
// signal deaths of the leader itself (a simple command is the leader), and
// 128+n when bash reports a child's.
func TestExitStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmd    string
		want   model.Exit
		stderr string
	}{
		{"exit 0", model.Exit{Code: 0}, ""},
		{"echo out; exit 3", model.Exit{Code: 3}, ""},
		{"exit 255", model.Exit{Code: 255}, ""},
		{"exit 256", model.Exit{Code: 0}, ""},
		{"exit 300", model.Exit{Code: 44}, ""},
		{"exit -1", model.Exit{Code: 255}, ""},
		// The leader itself dies: WIFSIGNALED.
		{"kill -SEGV $$", model.Exit{Signal: int(syscall.SIGSEGV)}, ""},
		{"kill -KILL $$", model.Exit{Signal: int(syscall.SIGKILL)}, ""},
		// One simple command is the leader itself: its own death.
		{"bash -c 'kill -SEGV $$'", model.Exit{Signal: int(syscall.SIGSEGV)}, ""},
		// In a compound command a child dies and bash reports 128+n (its
		// note on it is not printed: see the wrapper).
		{"bash -c 'kill -SEGV $$'; exit $?", model.Exit{Code: 139}, ""},
		{"pcase15-no-such-command --flag", model.Exit{Code: 127}, "command not found"},
		{"/etc/passwd", model.Exit{Code: 126}, "Permission denied"},
		{"if then fi", model.Exit{Code: 2}, "syntax error"},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			t.Parallel()
			j := startJob(t, Config{Command: tc.cmd})
			j.mustDone(10 * time.Second)
			ev, ok := j.exit()
			if !ok {
				t.Fatalf("no exit event: %v", j.events())
			}
			if ev.Exit != tc.want {
				t.Errorf("exit %v, want %v", ev.Exit, tc.want)
			}
			if !strings.Contains(j.errOut.text(), tc.stderr) {
				t.Errorf("stderr %q lacks %q", j.errOut.text(), tc.stderr)
			}
			if evs := j.events(); evs[len(evs)-1].Kind != EventEmpty {
				t.Errorf("last event %v, want empty", evs[len(evs)-1])
			}
		})
	}
}

func TestOutputStreams(t *testing.T) {
	t.Parallel()
	for _, tty := range []bool{false, true} {
		t.Run(fmt.Sprintf("tty=%v", tty), func(t *testing.T) {
			t.Parallel()
			j := startJob(t, Config{Command: `printf 'a\nb\n'; echo e >&2; [ -t 1 ] && echo stdout-is-tty; [ -t 2 ] && echo stderr-is-tty; [ -t 0 ] && echo stdin-is-tty; true`, TTY: tty})
			j.mustDone(10 * time.Second)
			out := j.out.text()
			want := "a\nb\n"
			if tty {
				want += "stdout-is-tty\nstderr-is-tty\n"
			}
			if out != want {
				t.Errorf("stdout %q, want %q (no \\r: OPOST off)", out, want)
			}
			if got := j.errOut.text(); got != "e\n" {
				t.Errorf("stderr %q, want %q", got, "e\n")
			}
		})
	}
}

// TestTTY: stty sees OPOST off and the default size on stdout's pty and
// on stderr's alike; /dev/tty opens only with Ctty.
func TestTTY(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"pty", Config{TTY: true}, []string{"-opost", "size=40 160", "devtty=failed", "err-opost=-opost", "err-size=40 160"}},
		{"pty sized", Config{TTY: true, Rows: 24, Cols: 100}, []string{"size=24 100", "err-size=24 100"}},
		{"pty ctty", Config{TTY: true, Ctty: true}, []string{"-opost", "devtty=ok"}},
		{"pipe", Config{}, []string{"devtty=failed", "stty-failed"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := tc.cfg
			cfg.Command = `exec 3>&1
stty -a <&3 | grep -o -- '-\?opost' || echo stty-failed
echo "size=$(stty size <&3)"
echo "err-opost=$(stty -a <&2 2>/dev/null | grep -o -- '-\?opost')"
echo "err-size=$(stty size <&2 2>/dev/null)"
if (: >/dev/tty) 2>/dev/null; then echo devtty=ok; else echo devtty=failed; fi`
			j := startJob(t, cfg)
			j.mustDone(10 * time.Second)
			for _, w := range tc.want {
				if !strings.Contains(j.out.text(), w) {
					t.Errorf("stdout lacks %q:\n%s\nstderr: %s", w, j.out.text(), j.errOut.text())
				}
			}
		})
	}
}

// TestNoCttyMeansENXIO: in its own session without a controlling terminal,
// /dev/tty gives ENXIO: nothing reaches jobdeck's terminal.
func TestNoCttyMeansENXIO(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `echo x > /dev/tty`})
	j.mustDone(10 * time.Second)
	if !strings.Contains(j.errOut.text(), "No such device or address") {
		t.Errorf("stderr %q, want ENXIO (No such device or address)", j.errOut.text())
	}
}

func TestEnvironment(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rc := filepath.Join(dir, "rc")
	if err := os.WriteFile(rc, []byte("echo RCFILE-WAS-READ\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "BASH_ENV="+rc, "ENV="+rc, EnvSession+"=outer", EnvJob+"=99", "PWD=/nonexistent", "FOO=bar baz")
	j := startJob(t, Config{Command: `env | sort; echo "pwd=$(pwd)"; read -r -a st < /proc/$$/stat; [ "${st[5]}" = $$ ] && echo own-session`, Dir: dir, Env: env, Job: 7})
	j.mustDone(10 * time.Second)
	out := j.out.text()
	for _, w := range []string{"own-session\n", EnvSession + "=" + j.session + "\n", EnvJob + "=7\n", "PWD=" + dir + "\n", "pwd=" + dir + "\n", "FOO=bar baz\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("environment lacks %q:\n%s", w, out)
		}
	}
	for _, bad := range []string{"RCFILE-WAS-READ", "JOBDECK_COMMAND", "BASH_ENV=", "\nENV=", "=outer", "=99\n"} {
		if strings.Contains(out, bad) {
			t.Errorf("environment has %q:\n%s", bad, out)
		}
	}
}

// TestFds: the job sees exactly fds 0, 1, 2 (stdin /dev/null, stdout in
// blocking mode), even when jobdeck has a leaked non-close-on-exec fd.
func TestFds(t *testing.T) {
	t.Parallel()
	// A leaked fd in "jobdeck" (this process): no O_CLOEXEC. The supervisor
	// inherits it; its Hygiene must keep it from the job.
	leak, err := syscall.Open("/dev/null", syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(leak)
	for _, tty := range []bool{false, true} {
		t.Run(fmt.Sprintf("tty=%v", tty), func(t *testing.T) {
			t.Parallel()
			j := startJob(t, Config{Command: `bash "$TESTDATA/fds.sh"`, TTY: tty})
			j.mustDone(10 * time.Second)
			out := j.out.text()
			if !strings.Contains(out, "child-fds: 0 1 2 \n") {
				t.Errorf("job fds: %s", out)
			}
			if !strings.Contains(out, "stdin: /dev/null") {
				t.Errorf("stdin: %s", out)
			}
			m := regexp.MustCompile(`stdout-flags: (\d+)`).FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no stdout flags: %s", out)
			}
			if flags, _ := strconv.ParseInt(m[1], 8, 64); flags&syscall.O_NONBLOCK != 0 {
				t.Errorf("the job's stdout is O_NONBLOCK (flags %s): writers would see EAGAIN", m[1])
			}
		})
	}
}

// TestLongCommand: a command longer than one environment string runs from
// a private temporary file, which is gone before the command runs (its
// private directory stays until the job ends: it holds the stop mark).
func TestLongCommand(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	pad := strings.Repeat("a", 200<<10)
	cmd := "x='" + pad + "'; echo len=${#x}; echo tmp=[$(ls -A \"$TMPDIR\"/jobdeck-job-*)]; echo var=[${JOBDECK_COMMAND_FILE-unset}]; echo $'tab\\there' \"quote'd\""
	j := startJob(t, Config{Command: cmd, Env: append(os.Environ(), "TMPDIR="+tmp)})
	j.mustDone(10 * time.Second)
	out := j.out.text()
	for _, w := range []string{"len=204800\n", "tmp=[]\n", "var=[unset]\n", "tab\there quote'd\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("stdout lacks %q:\n%.300s\nstderr: %s", w, out, j.errOut.text())
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left in TMPDIR: %v", left)
	}
}

// TestCommandBytesSurvive: invalid UTF-8 in the command reaches bash
// unchanged (the protocol carries bytes, not text).
func TestCommandBytesSurvive(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: "printf '%s' '\xff\xfe' | od -An -tx1"})
	j.mustDone(10 * time.Second)
	if got := strings.TrimSpace(j.out.text()); got != "ff fe" {
		t.Errorf("bytes seen by the job: %q, want \"ff fe\"", got)
	}
}

// TestPkillInsideJob: the command text is in no argv, so `pkill -f` on a
// word of it hits neither the leader, the supervisor nor this process.
func TestPkillInsideJob(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("pkill"); err != nil {
		t.Skip("pkill (procps) is not installed")
	}
	word := "pkm" + testSession()
	j := startJob(t, Config{Command: `(exec -a ` + word + `-srv sleep 30) & sleep 0.3; pkill -f ` + word + `; echo "survived pkill rc=$?"`})
	j.mustDone(10 * time.Second)
	if ev, _ := j.exit(); ev.Exit != (model.Exit{}) || !strings.Contains(j.out.text(), "survived pkill rc=0") {
		t.Errorf("exit %v, stdout %q: the job killed itself", ev.Exit, j.out.text())
	}

	// Negative control: the same pkill does hit a process whose argv holds
	// the text, here a bash started with the word as an argument.
	word2 := "pkn" + testSession()
	j2 := startJob(t, Config{Command: `bash -c 'sleep 0.3; pkill -f ` + word2 + `; echo survived' ` + word2 + `; echo "inner rc=$?"`})
	j2.mustDone(10 * time.Second)
	if strings.Contains(j2.out.text(), "survived") || !strings.Contains(j2.out.text(), "inner rc=143") {
		t.Errorf("negative control: stdout %q, want the inner bash killed (rc 143)", j2.out.text())
	}
}

// TestFloodKeepsFlowing: tens of MB go through the pipe or pty in full.
func TestFloodKeepsFlowing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tty bool
		n   int
	}{{false, 50_000_000}, {true, 10_000_000}} {
		t.Run(fmt.Sprintf("tty=%v", tc.tty), func(t *testing.T) {
			j := startJob(t, Config{Command: fmt.Sprintf("yes | head -c %d; echo; echo DONE", tc.n), TTY: tc.tty})
			j.mustDone(60 * time.Second)
			if got := j.out.bytes(); got != int64(tc.n)+6 {
				t.Errorf("read %d bytes, want %d", got, tc.n+6)
			}
			if !strings.HasSuffix(j.out.text(), "\nDONE\n") {
				t.Errorf("last line lost: %q", j.out.text()[max(0, len(j.out.text())-40):])
			}
		})
	}
}

// TestStopEscalatesToKill: nothing dies on SIGTERM, so after the grace
// SIGKILL ends the tree; the TERM handler's output arrives meanwhile.
func TestStopEscalatesToKill(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `bash "$TESTDATA/ignore-term.sh"`})
	j.mustOut("READY", 10*time.Second)
	// Both ignorers run sleep only once SIGTERM is ignored.
	j.mustMarked(3, j.session+"-ignorer", j.session+"-setsid-ignorer")
	const grace = time.Second
	stopAt := time.Now()
	if err := j.h.Stop(grace); err != nil {
		t.Fatal(err)
	}
	empty := j.mustEvent(EventEmpty, grace+5*time.Second)
	took := empty.Time.Sub(stopAt)
	t.Logf("ignore-TERM tree, grace %v: Stop -> EventEmpty %v (TERM to %d, KILL to %d)", grace, took, j.signalled(syscall.SIGTERM), j.signalled(syscall.SIGKILL))
	if took < grace || took > grace+2*time.Second {
		t.Errorf("Stop -> empty took %v, want grace %v + < 2 s", took, grace)
	}
	if n := j.signalled(syscall.SIGTERM); n < 3 {
		t.Errorf("SIGTERM went to %d processes, want >= 3", n)
	}
	if n := j.signalled(syscall.SIGKILL); n < 3 {
		t.Errorf("SIGKILL went to %d processes, want >= 3", n)
	}
	j.mustDone(5 * time.Second)
	if !strings.Contains(j.out.text(), "leader: got SIGTERM, ignoring") {
		t.Errorf("the TERM handler's line is missing: %q", j.out.text())
	}
}

// TestStopEscapees: children that left the group or session, or lost their
// parent, all die on the stop, with and without a cgroup, and without
// SIGKILL (they all die on SIGTERM).
func TestStopEscapees(t *testing.T) {
	t.Parallel()
	for _, noCgroup := range []bool{false, true} {
		t.Run(fmt.Sprintf("nocgroup=%v", noCgroup), func(t *testing.T) {
			t.Parallel()
			j := startJob(t, Config{Command: `bash "$TESTDATA/escapees.sh"`, NoCgroup: noCgroup})
			j.mustOut("READY", 10*time.Second)
			j.mustMarked(10, escapeesStarted(j.session)...)
			stopAt := time.Now()
			if err := j.h.Stop(3 * time.Second); err != nil {
				t.Fatal(err)
			}
			empty := j.mustEvent(EventEmpty, 8*time.Second)
			t.Logf("escapees (cgroup %q): Stop -> EventEmpty %v, TERM to %d", j.h.Cgroup(), empty.Time.Sub(stopAt), j.signalled(syscall.SIGTERM))
			if n := j.signalled(syscall.SIGKILL); n != 0 {
				t.Errorf("SIGKILL went to %d processes; SIGTERM should have been enough", n)
			}
			if took := empty.Time.Sub(stopAt); took > 2*time.Second {
				t.Errorf("stop took %v; everything dies on SIGTERM", took)
			}
			testkit.AssertNoLeftovers(t, j.session, 2*time.Second)
			if cg := j.h.Cgroup(); (cg == "") != noCgroup {
				t.Errorf("cgroup %q with NoCgroup %v", cg, noCgroup)
			}
		})
	}
}

// TestTermOnce: every process gets SIGTERM exactly once, whether it is in
// the leader's group, in its own session, or an orphan.
func TestTermOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	j := startJob(t, Config{Command: `bash "$TESTDATA/term-once.sh" ` + dir})
	for _, name := range []string{"leader", "child", "setsid", "orphan"} {
		j.mustOut(name+" armed", 10*time.Second) // its SIGTERM trap is set
	}
	// Each counter exits 0.5 s after its SIGTERM; the long grace only
	// matters on a machine too loaded to run them (SIGKILL then follows).
	stopAt := time.Now()
	if err := j.h.Stop(15 * time.Second); err != nil {
		t.Fatal(err)
	}
	j.mustDone(25 * time.Second)
	for _, name := range []string{"leader", "child", "setsid", "orphan"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if got := strings.Count(string(b), "TERM"); err != nil || got != 1 {
			t.Errorf("%s got SIGTERM %d times (%v), want once", name, got, err)
		}
		if !strings.Contains(string(b), "EXIT") {
			t.Errorf("%s did not exit after its SIGTERM (its record: %q; the stop began at %.6f)", name, b, float64(stopAt.UnixMicro())/1e6)
		}
	}
	if n := j.signalled(syscall.SIGKILL); n != 0 {
		t.Errorf("SIGKILL went to %d processes %v after the stop began; each exits 0.5 s after SIGTERM", n, time.Since(stopAt))
	}
}

// TestStopWakesStoppedProcess: SIGCONT follows SIGTERM, so a stopped child
// dies within the grace instead of at its end.
func TestStopWakesStoppedProcess(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `bash "$TESTDATA/stopped.sh"`})
	j.mustOut("READY", 10*time.Second)
	stopAt := time.Now()
	if err := j.h.Stop(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	empty := j.mustEvent(EventEmpty, 5*time.Second)
	if took := empty.Time.Sub(stopAt); took > 2*time.Second {
		t.Errorf("stop took %v: the stopped child did not act on SIGTERM", took)
	}
	if n := j.signalled(syscall.SIGKILL); n != 0 {
		t.Errorf("SIGKILL went to %d processes", n)
	}
}

// TestStopShorterGrace: a second Stop with a shorter grace cuts the first.
func TestStopShorterGrace(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `bash "$TESTDATA/ignore-term.sh"`})
	j.mustOut("READY", 10*time.Second)
	stopAt := time.Now()
	if err := j.h.Stop(time.Minute); err != nil {
		t.Fatal(err)
	}
	j.mustEvent(EventSignalled, 5*time.Second)
	if err := j.h.Stop(100 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := j.h.Stop(time.Hour); err != nil { // longer: changes nothing
		t.Fatal(err)
	}
	empty := j.mustEvent(EventEmpty, 5*time.Second)
	if took := empty.Time.Sub(stopAt); took > 3*time.Second {
		t.Errorf("stop took %v", took)
	}
	if n := j.signalled(syscall.SIGKILL); n == 0 {
		t.Error("no SIGKILL reported")
	}
}

// TestStopZeroGraceKillsAtOnce: Stop(0) sends no SIGTERM at all.
func TestStopZeroGraceKillsAtOnce(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `trap 'echo got-term' TERM; sleep 30 & wait`})
	testkit.Poll(time.Second, func() bool { return len(testkit.Marked(j.session)) >= 2 })
	if err := j.h.Stop(0); err != nil {
		t.Fatal(err)
	}
	j.mustDone(5 * time.Second)
	if n := j.signalled(syscall.SIGTERM); n != 0 || strings.Contains(j.out.text(), "got-term") {
		t.Errorf("SIGTERM sent (%d, %q) with zero grace", n, j.out.text())
	}
	if ev, _ := j.exit(); ev.Exit.Signal != int(syscall.SIGKILL) {
		t.Errorf("exit %v, want killed by SIGKILL", ev.Exit)
	}
	if err := j.h.Stop(0); err != nil {
		t.Errorf("Stop after the tree is empty: %v, want nil", err)
	}
}

// TestLeaderExitsBackgroundHoldsOutput: the exit status arrives when the
// leader exits, with one process still running whose output keeps coming;
// a stop ends it. Both with a pipe and with a pty (no ctty: no SIGHUP when
// the leader, the session leader, exits).
func TestLeaderExitsBackgroundHoldsOutput(t *testing.T) {
	t.Parallel()
	for _, tty := range []bool{false, true} {
		t.Run(fmt.Sprintf("tty=%v", tty), func(t *testing.T) {
			t.Parallel()
			j := startJob(t, Config{Command: `bash "$TESTDATA/leader-exits-bg.sh"`, TTY: tty})
			ev := j.mustEvent(EventExit, 5*time.Second)
			if ev.Exit != (model.Exit{}) || ev.Remaining != 1 {
				t.Errorf("exit event %+v, want exited 0 with 1 remaining", ev)
			}
			// Remaining 1 already shows the status came before the tree's
			// end; the bound is coarse (a loaded machine took 3.5 s).
			if d := ev.Time.Sub(j.started); d > testtimeout.Scale(5*time.Second) {
				t.Errorf("exit reported %v after start", d)
			}
			ticks := strings.Count(j.out.text(), "tick")
			if !testkit.Poll(3*time.Second, func() bool { return strings.Count(j.out.text(), "tick") >= ticks+5 }) {
				t.Fatalf("output stopped after the leader's exit: %q", j.out.text())
			}
			select {
			case <-j.out.done:
				t.Fatal("stdout closed while the ticker runs")
			default:
			}
			if err := j.h.Stop(2 * time.Second); err != nil {
				t.Fatal(err)
			}
			j.mustDone(5 * time.Second)
			var sawZero bool
			for _, ev := range j.events() {
				sawZero = sawZero || ev.Kind == EventRemaining && ev.Remaining == 0
			}
			if !sawZero {
				t.Errorf("no EventRemaining 0 during the stop: %v", j.events())
			}
		})
	}
}

// TestControllingTTYHangsUpBackground is the negative control of the
// test above: with Ctty, the leader's exit hangs up the pty and the kernel
// sends SIGHUP to the background ticker.
func TestControllingTTYHangsUpBackground(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `bash "$TESTDATA/leader-exits-bg.sh"`, TTY: true, Ctty: true})
	j.mustEvent(EventExit, 5*time.Second)
	j.mustDone(5 * time.Second)
	if ticks := strings.Count(j.out.text(), "tick"); ticks > 10 {
		t.Errorf("ticker survived the hangup (%d ticks)", ticks)
	}
}

// TestPortHolder: a double-forked listener in its own session is gone after
// the stop, so the port accepts nothing.
func TestPortHolder(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `bash "$TESTDATA/port-holder.sh"`})
	j.mustOut("LISTEN ", 10*time.Second)
	m := regexp.MustCompile(`LISTEN (\d+)`).FindStringSubmatch(j.out.text())
	addr := "127.0.0.1:" + m[1]
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial the job's listener: %v", err)
	}
	defer c.Close()
	if err := j.h.Stop(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	j.mustDone(5 * time.Second)
	if c2, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c2.Close()
		t.Errorf("%s still accepts connections after the stop", addr)
	}
}

// TestCloseStops: Close (EOF on the control pipe) stops the tree with
// Config.Grace.
func TestCloseStops(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `bash "$TESTDATA/ignore-term.sh"`, Grace: 300 * time.Millisecond})
	j.mustOut("READY", 10*time.Second)
	closedAt := time.Now()
	if err := j.h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := j.h.Stop(0); !errors.Is(err, ErrClosed) {
		t.Errorf("Stop after Close: %v, want ErrClosed", err)
	}
	empty := j.mustEvent(EventEmpty, 5*time.Second)
	if took := empty.Time.Sub(closedAt); took < 300*time.Millisecond || took > 3*time.Second {
		t.Errorf("Close -> empty took %v, want about the 300 ms grace", took)
	}
}

// TestSupervisorSignalled: SIGTERM to the supervisor itself stops the tree
// the normal way.
func TestSupervisorSignalled(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `bash "$TESTDATA/escapees.sh"`, Grace: 2 * time.Second})
	j.mustOut("READY", 10*time.Second)
	if err := j.h.proc.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	j.mustEvent(EventEmpty, 5*time.Second)
	j.mustDone(5 * time.Second)
}

// TestLostSupervisor: when the supervisor is SIGKILLed, jobdeck reports
// EventLost and kills what is left: through the cgroup, or through the
// environment markers.
func TestLostSupervisor(t *testing.T) {
	t.Parallel()
	for _, noCgroup := range []bool{false, true} {
		t.Run(fmt.Sprintf("nocgroup=%v", noCgroup), func(t *testing.T) {
			t.Parallel()
			j := startJob(t, Config{Command: `bash "$TESTDATA/escapees.sh"`, NoCgroup: noCgroup})
			j.mustOut("READY", 10*time.Second)
			// The whole tree first: one escapee still starting when the
			// supervisor dies is not the case under test.
			j.mustMarked(10, escapeesStarted(j.session)...)
			if err := j.h.proc.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			lost := j.mustEvent(EventLost, 10*time.Second)
			t.Logf("lost: %s", lost.Err)
			if evs := j.events(); evs[len(evs)-1].Kind != EventLost {
				t.Errorf("last event %v, want lost", evs[len(evs)-1])
			}
			if !strings.Contains(lost.Err, "signal: killed") {
				t.Errorf("lost event %q does not say the supervisor was killed", lost.Err)
			}
			// Only the env-scrubbed escapee lacks the markers; without a
			// cgroup, and with this test process no subreaper
			// (TestAdoptOrphans has one), nothing can find it. It holds
			// the job's output open until it is killed here.
			left := testkit.Marked(j.session)
			if !noCgroup {
				testkit.AssertNoLeftovers(t, j.session, 3*time.Second)
			} else if len(left) > 1 {
				t.Errorf("left behind: %v", left)
			}
			if noCgroup {
				for _, p := range left {
					if !strings.Contains(p, "env-scrubbed") {
						t.Errorf("left behind: %s", p)
					}
				}
				killMarkedArgv(t, j.session)
			}
			j.mustDone(5 * time.Second)
			if err := j.h.Stop(0); !errors.Is(err, ErrGone) {
				t.Errorf("Stop after loss: %v, want ErrGone", err)
			}
		})
	}
}

// escapeesStarted is the argv[0] of each escapee of escapees.sh that
// carries the marker there, once it has exec'd sleep.
func escapeesStarted(marker string) []string {
	var argv0s []string
	for _, name := range []string{"setsid", "setsid-f", "setpgid", "double-fork", "nohup", "disowned", "env-scrubbed"} {
		argv0s = append(argv0s, marker+"-"+name)
	}
	return argv0s
}

// killMarkedArgv kills leftovers the product cannot find (a process with
// neither markers nor cgroup) so the test leaves nothing behind. It scans
// again until a scan finds none, so that one a scan missed (a process in
// the middle of execve(2), say) is not left, and fails the test if any
// is still there after 5 s.
func killMarkedArgv(t *testing.T, marker string) {
	t.Helper()
	gone := testkit.Poll(5*time.Second, func() bool {
		left := testkit.Marked(marker)
		for _, p := range left {
			pid, _ := strconv.Atoi(strings.Fields(p)[0])
			if fd, err := unix.PidfdOpen(pid, 0); err == nil {
				_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
				unix.Close(fd)
			}
		}
		return len(left) == 0
	})
	if !gone {
		t.Errorf("left behind after SIGKILL: %q", testkit.Marked(marker))
	}
}

// TestJobdeckDeath: a fake jobdeck starts a job whose tree ignores SIGTERM
// and has a child in its own session; once it is SIGKILLed, its supervisor
// sees EOF on the control pipe, stops the tree with the job's grace and
// exits: helper, supervisor and job are all gone within grace + 2 s.
func TestJobdeckDeath(t *testing.T) {
	t.Parallel()
	const grace = time.Second
	mark := testSession()
	f := startFakeJobdeck(t, `bash "$TESTDATA/ignore-term.sh"`, mark, grace)
	f.waitLine("READY", 10*time.Second)
	if n := len(testkit.Marked(mark)); n < 5 { // helper, supervisor, leader, 2 ignorers, …
		t.Fatalf("only %d processes carry the marker: %v", n, testkit.Marked(mark))
	}
	killedAt := time.Now()
	f.kill()
	gone := testkit.Poll(grace+2*time.Second, func() bool { return len(testkit.Marked(mark)) == 0 })
	t.Logf("jobdeck SIGKILL -> tree and supervisor gone after %v (grace %v)", time.Since(killedAt), grace)
	if !gone {
		t.Errorf("left behind %v after jobdeck's death: %v", time.Since(killedAt), testkit.Marked(mark))
		killMarkedArgv(t, mark)
	}
}

// TestChildListersAgree: the /proc scan used where the kernel has no
// children files finds the same tree as the children files.
func TestChildListersAgree(t *testing.T) {
	t.Parallel()
	if !sys.HasChildrenFiles() {
		t.Skip("this kernel has no /proc/<pid>/task/<tid>/children to compare with")
	}
	j := startJob(t, Config{Command: `bash "$TESTDATA/escapees.sh"`})
	j.mustOut("READY", 10*time.Second)
	// Walk from the job's supervisor (other parallel tests churn elsewhere).
	root := j.h.proc.Pid
	pids := func(ps []sys.Stat) map[int]bool {
		m := map[int]bool{}
		for _, p := range ps {
			if !p.Zombie() {
				m[p.Pid] = true
			}
		}
		return m
	}
	// The tree: the leader, its eight escapees and the loop's current
	// `sleep 1`, which is missing for a moment between two sleeps (longer
	// on a busy machine). The loop forks, so retry until both listers
	// agree on a moment when the whole tree is there.
	var a, b map[int]bool
	ok := testkit.Poll(10*time.Second, func() bool {
		a = pids(sys.WalkWith(root, sys.ChildLister(true)))
		b = pids(sys.WalkWith(root, sys.ChildLister(false)))
		return fmt.Sprint(a) == fmt.Sprint(b) && len(a) >= 10
	})
	if !ok {
		t.Errorf("children files found %d processes, the /proc scan %d:\n%v\n%v", len(a), len(b), a, b)
	}
}

// TestSignalsNotIgnored: jobdeck inherited SIGHUP, SIGINT, SIGQUIT,
// SIGTERM, SIGTSTP, SIGTTIN and SIGTTOU as ignored (like `nohup jobdeck &`,
// or the console, which ignores SIGTTIN and SIGTTOU); Hygiene keeps SIG_IGN from
// reaching the job. Negative control: a job that ignores SIGHUP itself
// shows it in SigIgn, so the check can see an ignored signal.
func TestSignalsNotIgnored(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd, want string
	}{
		{`grep '^SigIgn' /proc/self/status`, "SigIgn:\t0000000000000000"},
		{`trap '' HUP; grep '^SigIgn' /proc/self/status`, "SigIgn:\t0000000000000001"},
	} {
		mark := testSession()
		cmd := exec.Command("bash", "-c", `trap '' HUP INT QUIT TERM TSTP TTIN TTOU; exec "$0"`, exe)
		cmd.Env = append(os.Environ(), helperEnv+"=fakejobdeck", "SUPTEST_CMD="+tc.cmd, "SUPTEST_SESSION="+mark)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		var got string
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "SigIgn:") || strings.HasPrefix(sc.Text(), "HELPER-ERROR") {
				got = sc.Text()
				break
			}
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.cmd, got, tc.want)
		}
		testkit.AssertNoLeftovers(t, mark, 5*time.Second)
	}
}

// TestEnvironmentNearArgMax: when the environment and the command together
// exceed ARG_MAX (stack limit / 4, execve(2)), the command moves to the
// private file; when the environment alone does, Start fails clearly.
func TestEnvironmentNearArgMax(t *testing.T) {
	t.Parallel()
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_STACK, &rl); err != nil || rl.Cur == unix.RLIM_INFINITY || rl.Cur > 64<<20 {
		t.Skip("stack limit unlimited or large: ARG_MAX is not stack/4 here")
	}
	argMax := int(rl.Cur / 4)
	bigEnv := func(total int) []string {
		env := []string{"PATH=" + os.Getenv("PATH")}
		for i := 0; total > 0; i++ {
			n := min(total, 100<<10)
			env = append(env, fmt.Sprintf("BIG%d=%s", i, strings.Repeat("e", n)))
			total -= n + 10
		}
		return env
	}
	// The leader's initial environment (/proc/$$/environ) shows how the
	// command came.
	cmd := "x='" + strings.Repeat("c", 100<<10) + "'; echo len=${#x}; tr '\\0' '\\n' < /proc/$$/environ | grep -o '^JOBDECK_COMMAND[A-Z_]*='"

	for _, tc := range []struct {
		env  int
		want string
	}{
		{argMax - 300<<10, "JOBDECK_COMMAND="},     // all fits: the command stays in the environment
		{argMax - 60<<10, "JOBDECK_COMMAND_FILE="}, // E2BIG with it: moved to the file
	} {
		tmp := t.TempDir()
		j := startJob(t, Config{Command: cmd, Env: append(bigEnv(tc.env), "TMPDIR="+tmp)})
		j.mustDone(10 * time.Second)
		if !strings.Contains(j.out.text(), "len=102400\n"+tc.want+"\n") {
			t.Errorf("environment of %d bytes: stdout %q stderr %q, want %s", tc.env, tailOf(j.out.text(), 80), j.errOut.text(), tc.want)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("temporary files left: %v", left)
		}
	}

	_, err := Start(Config{Command: "true", Dir: t.TempDir(), Env: bigEnv(argMax + 100<<10), Session: testSession()})
	if !errors.Is(err, ErrBadCommand) || !strings.Contains(err.Error(), "environment is too large") {
		t.Errorf("Start with an environment over ARG_MAX: %v", err)
	}
}

// TestStopWideTree: about 650 processes, 100 in their own sessions and 50
// orphaned, all gone on SIGTERM alone (well within a second on a quiet
// machine).
func TestStopWideTree(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `bash "$TESTDATA/wide-tree.sh"`})
	j.mustOut("READY", 60*time.Second)
	// The helpers' children may still be starting after READY.
	j.mustMarked(640)
	// The grace is long so that a starved machine does not reach SIGKILL;
	// the bound on the stop is coarse: both cores busy with two test runs
	// took 4.5 s.
	stopAt := time.Now()
	if err := j.h.Stop(testtimeout.Scale(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	empty := j.mustEvent(EventEmpty, testtimeout.Scale(40*time.Second))
	took := empty.Time.Sub(stopAt)
	t.Logf("wide tree: Stop -> EventEmpty %v, TERM to %d, KILL to %d", took, j.signalled(syscall.SIGTERM), j.signalled(syscall.SIGKILL))
	if took > testtimeout.Scale(15*time.Second) || j.signalled(syscall.SIGKILL) != 0 {
		t.Errorf("stop took %v with %d SIGKILLs", took, j.signalled(syscall.SIGKILL))
	}
	if n := j.signalled(syscall.SIGTERM); n < 640 {
		t.Errorf("SIGTERM went to %d processes, want >= 640", n)
	}
}

// TestStopHydra: respawners replace every child SIGTERM kills and ignore
// SIGTERM themselves; SIGKILL after the grace ends them all.
func TestStopHydra(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `exec bash "$TESTDATA/hydra.sh"`})
	j.mustOut("READY", 10*time.Second)
	const grace = 500 * time.Millisecond
	stopAt := time.Now()
	if err := j.h.Stop(grace); err != nil {
		t.Fatal(err)
	}
	empty := j.mustEvent(EventEmpty, 5*time.Second)
	took := empty.Time.Sub(stopAt)
	t.Logf("hydra, grace %v: Stop -> EventEmpty %v, TERM to %d, KILL to %d", grace, took, j.signalled(syscall.SIGTERM), j.signalled(syscall.SIGKILL))
	if took < grace || took > grace+2*time.Second {
		t.Errorf("stop took %v", took)
	}
	if n := j.signalled(syscall.SIGKILL); n < 4 {
		t.Errorf("SIGKILL went to %d processes, want >= 4 (the respawners and their children)", n)
	}
}

// TestCleanStaleCgroups: a job cgroup of a jobdeck that is gone (a pid
// that cannot exist) is removed, with what ran in it; one of a live pid
// (this test's) is left alone.
func TestCleanStaleCgroups(t *testing.T) {
	dir, err := sys.CgroupPath("x", 0)
	if err != nil {
		t.Skipf("no cgroup v2 here: %v", err)
	}
	parent := filepath.Dir(dir)
	stale := filepath.Join(parent, fmt.Sprintf("jobdeck-%d-00test-0", 1<<30)) // above any pid_max
	live := filepath.Join(parent, fmt.Sprintf("jobdeck-%d-00test-1", os.Getpid()))
	if err := os.Mkdir(stale, 0o755); err != nil {
		t.Skipf("cgroup v2 not writable here: %v", err)
	}
	defer os.Remove(stale)
	if err := os.Mkdir(live, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(live)
	// A process in the stale cgroup: it must die with it.
	sleeper := exec.Command("sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() }()
	if err := os.WriteFile(filepath.Join(stale, "cgroup.procs"), []byte(strconv.Itoa(sleeper.Process.Pid)), 0); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- sleeper.Wait() }()
	if n := CleanStaleCgroups(); n < 1 {
		t.Fatalf("CleanStaleCgroups removed %d", n)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale cgroup is still there: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the live jobdeck's cgroup was removed: %v", err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error("the process in the stale cgroup was not killed")
	}
}
