//go:build unix

package session

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Another user who made jobdeck-<uid> first in a sticky temporary
// directory blocks the default session directory: jobdeck refuses it and
// says to use XDG_RUNTIME_DIR or JOBDECK_SESSION_DIR (removing it cannot
// work), and following that advice works.
func TestDirOfAnotherUserAdvice(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a directory of another uid")
	}
	t.Parallel()
	w := newWorld(t)
	tmp := t.TempDir()
	if err := os.Chmod(tmp, 0o1777); err != nil {
		t.Fatal(err)
	}
	taken := filepath.Join(tmp, "jobdeck-"+strconv.Itoa(os.Geteuid()))
	if err := os.Mkdir(taken, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(taken, otherUID(), otherUID()); err != nil {
		t.Fatal(err)
	}
	run := func(extra ...string) (string, error) {
		c := exec.Command(w.bin, "sessions")
		c.Dir = w.wt
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, EnvDir+"=") && !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") && !strings.HasPrefix(kv, "TMPDIR=") {
				c.Env = append(c.Env, kv)
			}
		}
		c.Env = append(c.Env, append([]string{"TMPDIR=" + tmp}, extra...)...)
		out, err := c.CombinedOutput()
		return string(out), err
	}
	out, err := run()
	if err == nil || !strings.Contains(out, "belongs to uid") || !strings.Contains(out, EnvDir) || !strings.Contains(out, "XDG_RUNTIME_DIR") || strings.Contains(out, "remove it (") {
		t.Fatalf("a session directory another uid made first: err %v, output:\n%s\nwant a refusal that says to set XDG_RUNTIME_DIR or %s", err, out, EnvDir)
	}
	own := t.TempDir()
	for _, env := range []string{"XDG_RUNTIME_DIR=" + own, EnvDir + "=" + filepath.Join(own, "sessions")} {
		if out, err := run(env); err != nil {
			t.Errorf("with %s, as the refusal advised: %v\n%s", env, err, out)
		}
	}
}
