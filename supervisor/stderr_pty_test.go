//go:build linux

package supervisor

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestStderrPtyResizedWithStdout: Resize sizes stdout's pty and stderr's
// and the job gets one SIGWINCH per Resize; a trap counts them and the
// loop prints the count with both sizes (outside the trap: bash drops a
// signal that comes while its own trap runs).
func TestStderrPtyResizedWithStdout(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{TTY: true, Rows: 30, Cols: 100, Command: `exec 3>&1; n=0 seen=0
trap 'n=$((n+1))' WINCH
echo ready
while :; do
	if [ "$n" != "$seen" ]; then seen=$n; echo "winch $n: $(stty size <&3) / $(stty size <&2)"; fi
	sleep 0.05
done`})
	j.mustOut("ready\n", 10*time.Second)
	if err := j.h.Resize(54, 20); err != nil {
		t.Fatal(err)
	}
	j.mustOut("winch 1: 20 54 / 20 54\n", 10*time.Second)
	if err := j.h.Resize(110, 30); err != nil {
		t.Fatal(err)
	}
	j.mustOut("winch 2: 30 110 / 30 110\n", 10*time.Second)
	if n := strings.Count(j.out.text(), "winch "); n != 2 {
		t.Errorf("%d SIGWINCH traps for 2 resizes, want 2 (one each):\n%s", n, j.out.text())
	}
}

// TestStderrPipeWhenOutOfPtys: when the second pty cannot be opened the
// job starts all the same with stderr on a pipe, and Notes says so; with
// every pty refused, the start fails as before (stdout needs its pty).
// Not parallel: it replaces ptyOpen for the whole package.
func TestStderrPipeWhenOutOfPtys(t *testing.T) {
	calls := 0
	ptyOpen = func() (*os.File, *os.File, error) {
		calls++
		if calls > 1 {
			return nil, nil, errors.New("open /dev/ptmx: no space left on device")
		}
		return pty.Open()
	}
	t.Cleanup(func() { ptyOpen = pty.Open })
	j := startJob(t, Config{TTY: true, Command: `[ -t 1 ] && echo out-tty; [ -t 2 ] && echo err-tty; echo e >&2`})
	j.mustDone(10 * time.Second)
	if got := j.out.text(); got != "out-tty\n" {
		t.Errorf("stdout %q, want %q (a pty on stdout, a pipe on stderr)", got, "out-tty\n")
	}
	if got := j.errOut.text(); got != "e\n" {
		t.Errorf("stderr %q, want %q", got, "e\n")
	}
	notes := strings.Join(j.h.Notes(), "\n")
	if !strings.Contains(notes, "stderr is a pipe, not a terminal") || !strings.Contains(notes, "no space left") {
		t.Errorf("notes %q, want one saying stderr is a pipe and why", notes)
	}
	// The negative control: the same fault on the first pty is a failed
	// start, so the fallback above is the second pty's alone.
	calls = 1
	if _, err := tryStartJob(t, Config{TTY: true, Command: "true"}); err == nil || !strings.Contains(err.Error(), "set TTY off") {
		t.Errorf("start with no pty at all: %v, want the stdout pty's error", err)
	}
}
