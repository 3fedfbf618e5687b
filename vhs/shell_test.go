//go:build unix

package vhs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// Helpers for the Go tests that drive jobdeck in a terminal without a tape
// (safety_test.go, quit_test.go).

// startShell starts bash in a Term of cols × rows cells with the runner's
// fixed environment (Tape.Run's), the freshly built jobdeck first on PATH,
// a private HOME and vhs/ as the working directory; it waits for the first
// prompt. The Term is closed (and the test fails on leftovers) at cleanup.
func startShell(t *testing.T, cols, rows int) *Term {
	t.Helper()
	term, _ := startShellEnv(t, cols, rows)
	return term
}

// startShellEnv is startShell that also returns the shell's environment,
// for other jobdeck processes that are to meet the shell's in one session
// (same JOBDECK_SESSION_DIR); extra entries are added to it.
func startShellEnv(t testing.TB, cols, rows int, extra ...string) (*Term, []string) {
	t.Helper()
	bin := jobdeckDir(t)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("skipping: bash not on PATH")
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	sessions := filepath.Join(home, ".jobdeck-sessions")
	env := []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "SHELL=" + bash, "PS1=" + Prompt,
		"TERM=xterm-256color", "LANG=C.UTF-8",
		// Sessions of its own, as Tape.Run gives each replay.
		"JOBDECK_SESSION_DIR=" + sessions,
	}
	if tmp := os.Getenv("TMPDIR"); tmp != "" {
		env = append(env, "TMPDIR="+tmp)
	}
	env = append(env, extra...)
	term, err := StartTerm(TermOptions{Argv: append([]string{bash}, ShellArgv[1:]...), Env: env, Dir: dir, Cols: cols, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A long grace costs nothing when the shell ends at once; with both
		// cores busy bash was seen to outlive its SIGHUP by over 10 s.
		if err := term.Close(30 * time.Second); err != nil {
			t.Errorf("closing the terminal: %v", err)
		}
		testkit.WaitSessions(sessions, SessionsEnd)
	})
	waitScreen(t, term, "Line", `>$`, 10*time.Second)
	if err := term.Settle(100*time.Millisecond, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	return term, env
}

// waitScreen polls the screen (scope "Screen") or the cursor line ("Line")
// until the Go regexp re matches, like a tape's Wait; on timeout the test
// fails and shows the screen.
func waitScreen(t testing.TB, term *Term, scope, re string, timeout time.Duration) {
	t.Helper()
	r := &replay{term: term}
	if err := r.wait(t.Context(), scope, regexp.MustCompile(re), timeout); err != nil {
		t.Fatal(err)
	}
}

// typeLine types s and presses Enter.
func typeLine(term *Term, s string) {
	term.SendText(s)
	term.SendKey(uv.KeyPressEvent{Code: vt.KeyEnter})
}

// demoPath returns the absolute path of testdata/demo/<name>.
func demoPath(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "demo", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// shellQuote quotes s for bash with single quotes.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// needPrograms skips the test unless every program is on PATH.
func needPrograms(t testing.TB, progs ...string) {
	t.Helper()
	for _, p := range progs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("skipping: %s is not installed", p)
		}
	}
}
