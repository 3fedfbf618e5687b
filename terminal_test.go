//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestConsoleNeedsTerminal: a console started with no terminal (its own
// session, stdin not a tty, so /dev/tty cannot open) says so and exits 1
// before it starts a session or a job; `sessions` after flags is refused
// with the spelling that works, and so is an --http address that is not
// loopback host:port (it was refused by the session, after the token file
// was written): nothing starts either.
func TestConsoleNeedsTerminal(t *testing.T) {
	t.Parallel()
	dir := testSessionDir(t)
	sdir := strings.TrimPrefix(dir, "JOBDECK_SESSION_DIR=")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--", "echo hi"}, 1, "the console needs a terminal"},
		{[]string{"--private", "sessions"}, 2, "sessions is a subcommand"},
		{[]string{"--session", "team", "sessions"}, 2, "jobdeck -- sessions"},
		{[]string{"--serve", "--http", "0.0.0.0:18765"}, 2, "not a loopback address"},
		{[]string{"--serve", "--http", "localhost"}, 2, "missing port"},
	} {
		cmd := exec.Command(os.Args[0], tc.args...)
		cmd.Env = append(os.Environ(), asJobdeckEnv+"=1", dir)
		cmd.Dir = t.TempDir()
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal
		out, err := cmd.CombinedOutput()
		code := cmd.ProcessState.ExitCode()
		if err != nil && code < 0 {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if code != tc.code || !strings.Contains(string(out), tc.want) {
			t.Errorf("jobdeck %q: exit %d, %q; want exit %d saying %q", tc.args, code, out, tc.code, tc.want)
		}
	}
	// Nothing was started: a session would have left its lock and socket.
	if m, _ := filepath.Glob(filepath.Join(sdir, "*")); len(m) > 0 {
		t.Errorf("a session was started: %v", m)
	}
}
