//go:build unix

package vhs

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// TestQuitWithRunningJobsLeavesNothing starts jobdeck with two jobs whose
// trees escape a naive kill: ../shared/cases/proc/03-setsid-escape.sh
// (setsid, setsid -f, python setsid/setpgid, a detached node child, a
// renamed and an env-scrubbed process) and the own testdata/demo/tree.sh
// (a TERM-ignoring child and a setsid grandchild). It quits with q, y and
// requires that nothing carrying either marker is left: the shared
// check-leftovers.sh -m <marker> -w 5 exits 0 for both, and so does the own
// scan. Before quitting the same checks must find the processes (exit 1):
// the negative control.
func TestQuitWithRunningJobsLeavesNothing(t *testing.T) {
	t.Parallel()
	needPrograms(t, "setsid", "python3", "node")
	case03 := testkit.ProcCase(t, "03-setsid-escape.sh")
	cases := testkit.ProcCases(t)
	stamp := fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
	mark03 := "pcase-03-vhsquit-" + stamp
	markTree := "demo-tree-vhsquit-" + stamp

	term := startShell(t, 120, 40)
	typeLine(term, "jobdeck -- "+
		shellQuote("PROC_CASE_MARKER="+mark03+" bash "+shellQuote(case03))+" "+
		shellQuote("DEMO_MARK="+markTree+" "+shellQuote(demoPath(t, "tree.sh"))))
	waitScreen(t, term, "Screen", mark03+` READY`, 20*time.Second)
	waitScreen(t, term, "Screen", `tree READY`, 20*time.Second)
	waitScreen(t, term, "Screen", `\n2/8 running · 0 finished`, 10*time.Second)

	// Negative control: while the jobs run, each check finds them.
	for _, m := range []string{mark03, markTree} {
		if code := checkLeftovers(t, cases, "-m", m, "-q"); code != 1 {
			t.Fatalf("check-leftovers.sh -m %s exited %d while the jobs run, want 1 (it cannot see them?)", m, code)
		}
	}
	if code := ownScan(t, markTree, "0"); code != 1 {
		t.Fatalf("leftovers.sh exited %d while the tree runs, want 1", code)
	}

	term.SendText("q")
	waitScreen(t, term, "Screen", `\nstop 2 running jobs and quit\? y/n\n`, 5*time.Second)
	term.SendText("y")
	// The TERM-ignoring child costs the grace (5 s) before SIGKILL.
	waitScreen(t, term, "Line", `>$`, 30*time.Second)
	if screen := term.Screen(); strings.Contains(screen, "jobdeck:") {
		t.Errorf("jobdeck reported an error when it quit:\n%s", screen)
	}

	for _, m := range []string{mark03, markTree} {
		if code := checkLeftovers(t, cases, "-m", m, "-w", "5"); code != 0 {
			t.Errorf("check-leftovers.sh -m %s -w 5 exited %d after quitting, want 0", m, code)
		}
	}
	if code := ownScan(t, markTree, "5"); code != 0 {
		t.Errorf("leftovers.sh exited %d after quitting, want 0", code)
	}
	if t.Failed() {
		// Leave nothing behind even when jobdeck did.
		for _, m := range []string{mark03, markTree} {
			checkLeftovers(t, cases, "-m", m, "-k", "-q")
		}
	}
}

// checkLeftovers runs the shared check-leftovers.sh of cases with args and
// returns its exit status, logging its report.
func checkLeftovers(t *testing.T, cases string, args ...string) int {
	t.Helper()
	code, out := testkit.CheckLeftovers(t, cases, args...)
	if out != "" {
		t.Logf("check-leftovers.sh %v:\n%s", args, out)
	}
	return code
}

// ownScan runs testdata/demo/leftovers.sh for the tree marker mark (waiting
// up to wait seconds for it to clear) and returns its exit status.
func ownScan(t *testing.T, mark, wait string) int {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "bash", filepath.Join("testdata", "demo", "leftovers.sh"), "-w", wait)
	// The scanner matches DEMO_MARK=<mark> in other processes' environment
	// and skips itself.
	cmd.Env = append(os.Environ(), "DEMO_MARK="+mark)
	out, err := cmd.CombinedOutput()
	t.Logf("leftovers.sh:\n%s", out)
	return exitCode(t, err)
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	default:
		t.Fatalf("run a leftover check: %v", err)
		return -1
	}
}
