//go:build linux

package supervisor

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// TestAdoptOrphans: a fake jobdeck that adopts orphans (AdoptOrphans)
// runs escapees.sh without any cgroup; its supervisor is SIGKILLed. The
// escapee that cleared its environment (`env -i`) and started its own
// session carries no marker and no cgroup, so only the subreaper can find
// it: it is gone within a second, and the job's private directory too.
// Negative control: without AdoptOrphans the same escapee survives.
//
// As root, the fake jobdeck runs in a mount namespace of its own with the
// cgroup2 hierarchy remounted read-only, so no cgroup can be made the way
// it happens in a container; otherwise it starts the job with NoCgroup.
func TestAdoptOrphans(t *testing.T) {
	t.Parallel()
	for _, adopt := range []bool{true, false} {
		name := "adopt"
		if !adopt {
			name = "control-without-adopt"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := startAdopter(t, adopt)
			started := f.waitLine("HELPER-STARTED", 10*time.Second)
			if !strings.HasSuffix(started, "cgroup=") {
				t.Fatalf("the job got a cgroup (%s); the test needs a job without one", started)
			}
			f.waitLine("READY", 10*time.Second)
			escapee := f.marked("env-scrubbed")
			if len(escapee) != 1 {
				t.Fatalf("env-scrubbed escapee not found: %v", f.marked(""))
			}
			if dirs, _ := os.ReadDir(f.tmp); len(dirs) != 1 {
				t.Errorf("private directories in the job's TMPDIR: %v, want 1", dirs)
			}
			if _, err := io.WriteString(f.stdin, "kill-supervisor\n"); err != nil {
				t.Fatal(err)
			}
			killed := time.Now()
			gone := testkit.Poll(time.Second, func() bool { return len(f.marked("")) == 0 })
			took := time.Since(killed)
			lost := f.waitLine("HELPER-LOST", 10*time.Second)
			t.Logf("%s: %v after the SIGKILL, left: %v; %s", name, took.Round(time.Millisecond), f.marked(""), lost)
			if !adopt {
				if len(f.marked("env-scrubbed")) != 1 {
					t.Errorf("control: the env-scrubbed escapee died without the subreaper; the test proves nothing")
				}
				killMarkedArgv(t, f.mark)
				return
			}
			if !gone {
				t.Errorf("processes of the job left 1 s after its supervisor was SIGKILLed: %v", f.marked(""))
			}
			if !strings.Contains(lost, "came back to it") {
				t.Errorf("EventLost does not say what the subreaper killed: %s", lost)
			}
			if dirs, _ := os.ReadDir(f.tmp); len(dirs) != 0 {
				t.Errorf("the job's private directory is left: %v", dirs)
			}
		})
	}
}

// adoptingJobdeck is a fake jobdeck started by startAdopter.
type adoptingJobdeck struct {
	*fakeJobdeck
	stdin io.WriteCloser
	mark  string
	tmp   string // the job's TMPDIR
}

// startAdopter starts a fake jobdeck running escapees.sh without a cgroup;
// with adopt it calls AdoptOrphans first.
func startAdopter(t *testing.T, adopt bool) *adoptingJobdeck {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	a := &adoptingJobdeck{mark: testSession(), tmp: t.TempDir()}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), helperEnv+"=fakejobdeck", `SUPTEST_CMD=bash "$TESTDATA/escapees.sh"`,
		"SUPTEST_SESSION="+a.mark, "SUPTEST_GRACE_MS=1000", "TMPDIR="+a.tmp,
		"TEST_MARK="+a.mark, "TESTDATA="+testdataDir(t), "SUPTEST_EXE="+exe)
	if adopt {
		cmd.Env = append(cmd.Env, "SUPTEST_ADOPT=1")
	}
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
		cmd.Env = append(cmd.Env, "SUPTEST_ROCGROUP=1")
	} else {
		t.Log("not root: no mount namespace with a read-only cgroup2; the job runs with NoCgroup")
		cmd.Env = append(cmd.Env, "SUPTEST_NOCGROUP=1")
	}
	if a.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	a.fakeJobdeck = &fakeJobdeck{t: t, cmd: cmd, lines: make(chan string, 1024)}
	go func() {
		defer close(a.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case a.lines <- sc.Text():
			default:
			}
		}
	}()
	t.Cleanup(func() {
		a.kill()
		killMarkedArgv(t, a.mark)
	})
	return a
}

// waitLine waits for a line containing s and returns it.
func (a *adoptingJobdeck) waitLine(s string, d time.Duration) string {
	a.t.Helper()
	timeout := time.After(d)
	for {
		select {
		case line, ok := <-a.lines:
			if !ok {
				a.t.Fatalf("fake jobdeck ended before printing %q", s)
			}
			if strings.Contains(line, "HELPER-ERROR") {
				a.t.Fatal(line)
			}
			if strings.Contains(line, s) {
				return line
			}
		case <-timeout:
			a.t.Fatalf("fake jobdeck printed no %q within %v", s, d)
		}
	}
}

// marked lists the live processes of the job whose argv or environment
// holds the mark and sub, the fake jobdeck itself left out.
func (a *adoptingJobdeck) marked(sub string) []string {
	self := strconv.Itoa(a.cmd.Process.Pid) + " "
	var out []string
	for _, p := range testkit.Marked(a.mark) {
		if !strings.HasPrefix(p, self) && strings.Contains(p, sub) {
			out = append(out, p)
		}
	}
	return out
}
