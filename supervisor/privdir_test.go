//go:build unix

package supervisor

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// TestCleanStaleDirs: the private directory of a job whose jobdeck is dead
// is removed; those of a running jobdeck, names that carry no pid, and a
// symbolic link (and what it points to) are left alone.
func TestCleanStaleDirs(t *testing.T) {
	t.Parallel()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadPid := strconv.Itoa(dead.Process.Pid)
	livePid := strconv.Itoa(os.Getppid())
	base, outside := t.TempDir(), t.TempDir()
	mk := func(name string) string {
		d := filepath.Join(base, name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "stopping"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		return d
	}
	stale := mk(wire.PrivateName(deadPid+"-0a1b", 3) + "-123")
	kept := []string{
		mk(wire.PrivateName(livePid+"-0a1b", 0) + "-456"),
		mk(wire.PrivateName("suptest-7", 1) + "-789"),
	}
	link := filepath.Join(base, wire.PrivateName(deadPid+"-ffff", 2)+"-1")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, link, outside)
	if n := cleanStaleDirsIn(base); n != 1 {
		t.Errorf("removed %d directories, want 1", n)
	}
	if _, err := os.Lstat(stale); !os.IsNotExist(err) {
		t.Errorf("stale directory %s is still there (%v)", stale, err)
	}
	for _, d := range kept {
		if _, err := os.Lstat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}
