//go:build unix

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sessionsWorld runs the test binary as jobdeck in a session directory of
// the test's own.
type sessionsWorld struct {
	t   *testing.T
	env string // JOBDECK_SESSION_DIR=…
}

// jobdeck runs `jobdeck args…` in dir and returns its exit code and output.
func (w sessionsWorld) jobdeck(dir string, args ...string) (int, string) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asJobdeckEnv+"=1", w.env)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	return cmd.ProcessState.ExitCode(), string(out)
}

// agent attaches `jobdeck --serve args…` started in dir until the test
// ends (its stdin is a pipe the test holds open).
func (w sessionsWorld) agent(dir string, args ...string) {
	cmd := exec.Command(os.Args[0], append([]string{"--serve", "--linger", "0s"}, args...)...)
	cmd.Env = append(os.Environ(), asJobdeckEnv+"=1", w.env)
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { in.Close(); _ = cmd.Wait() })
}

// waitListed waits until `jobdeck sessions` lists want.
func (w sessionsWorld) waitListed(want string) {
	w.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, out := w.jobdeck(w.t.TempDir(), "sessions")
		if strings.Contains(out, want) {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("jobdeck sessions never listed %q: %s", want, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestSessionsStop: a session whose worktree was removed is stopped by
// the path it lists; a word that is both a directory here and a live
// session's name is refused as ambiguous, and --session NAME stops the
// named one.
func TestSessionsStop(t *testing.T) {
	t.Parallel()
	w := sessionsWorld{t: t, env: testSessionDir(t)}
	base, _ := filepath.EvalSymlinks(t.TempDir())

	gone := filepath.Join(base, "gone")
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	w.agent(gone)
	w.waitListed(gone)
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	if code, out := w.jobdeck(base, "sessions", "stop", gone); code != 0 || !strings.Contains(out, "stopped the session of "+gone) {
		t.Errorf("sessions stop of a removed worktree: exit %d, %s", code, out)
	}

	r1 := filepath.Join(base, "r1")
	if err := os.Mkdir(r1, 0o755); err != nil {
		t.Fatal(err)
	}
	w.agent(r1)
	w.agent(r1, "--session", "r1")
	w.waitListed(`session "r1"`)
	w.waitListed(r1 + "\n")
	code, out := w.jobdeck(base, "sessions", "stop", "r1")
	if code != 2 || !strings.Contains(out, "means two live sessions") || !strings.Contains(out, "--session r1") {
		t.Errorf("sessions stop r1 with both live: exit %d, %s", code, out)
	}
	if code, out := w.jobdeck(base, "sessions", "stop", "--session", "r1"); code != 0 || !strings.Contains(out, `stopped session "r1"`) {
		t.Errorf("sessions stop --session r1: exit %d, %s", code, out)
	}
	if code, out := w.jobdeck(base, "sessions", "stop", "r1"); code != 0 || !strings.Contains(out, "stopped the session of "+r1) {
		t.Errorf("sessions stop r1 with the directory's alone live: exit %d, %s", code, out)
	}
}

// `jobdeck sessions stop ”` is refused, not read as this directory; a
// 5,000-character argument is cut in every message it appears in; `jobdeck
// sessions list` lists (and refuses an argument), and the usage says so.
func TestSessionsArguments(t *testing.T) {
	t.Parallel()
	w := sessionsWorld{t: t, env: testSessionDir(t)}
	dir := t.TempDir()
	if code, out := w.jobdeck(dir, "sessions", "stop", ""); code != 2 || !strings.Contains(out, "empty") {
		t.Errorf("sessions stop '': exit %d, %q; want exit 2 saying the argument is empty", code, out)
	}
	if code, out := w.jobdeck(dir, "sessions", "stop", "--session", ""); code != 2 || !strings.Contains(out, "bad session name") {
		t.Errorf("sessions stop --session '': exit %d, %q; want exit 2, a bad name", code, out)
	}
	long := strings.Repeat("a", 5000)
	for _, args := range [][]string{
		{"sessions", "stop", long},
		{"sessions", "stop", "/gone/" + long},
		{"sessions", "stop", "a b" + long},
		{"sessions", "stop", "--session", long},
		{"sessions", long},
	} {
		code, out := w.jobdeck(dir, args...)
		if code == 0 || len(out) > 400 || !strings.Contains(out, "…") {
			t.Errorf("jobdeck %s (5,000 characters): exit %d, %d bytes of output; want an error that cuts it:\n%.300s", args[len(args)-2], code, len(out), out)
		}
	}
	if code, out := w.jobdeck(dir, "sessions", "list", "extra"); code != 2 || !strings.Contains(out, "takes no arguments") {
		t.Errorf("sessions list extra: exit %d, %q; want exit 2, no arguments", code, out)
	}
	if code, out := w.jobdeck(dir, "sessions", "list"); code != 0 || !strings.Contains(out, "no live sessions") {
		t.Errorf("sessions list: exit %d, %q", code, out)
	}
	if _, out := w.jobdeck(dir, "sessions", "--help"); !strings.Contains(out, "sessions [list]") {
		t.Errorf("the usage of jobdeck sessions does not name list:\n%s", out)
	}
}
