package process

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOOMKills: the oom_kill count of a cgroup's memory.events, and 0
// where there is none to read.
func TestOOMKills(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if n := oomKills(dir); n != 0 {
		t.Errorf("no memory.events: %d", n)
	}
	events := "low 0\nhigh 0\nmax 3\noom 2\noom_kill 2\noom_group_kill 0\n"
	if err := os.WriteFile(filepath.Join(dir, "memory.events"), []byte(events), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := oomKills(dir); n != 2 {
		t.Errorf("oom_kill 2 read as %d", n)
	}
}
