//go:build linux

package process

import (
	"os"
	"path/filepath"
	"testing"
)

// TestJobNproc: a job gets 64 fewer processes than jobdeck, or half when
// jobdeck's limit is below 128.
func TestJobNproc(t *testing.T) {
	t.Parallel()
	for own, want := range map[uint64]uint64{96365: 96301, 200: 136, 128: 64, 127: 64, 60: 30, 1: 1} {
		if got := jobNproc(own); got != want {
			t.Errorf("jobNproc(%d) = %d, want %d", own, got, want)
		}
	}
}

// TestLimitReached: with a pids controller the cgroup's pids.events says
// whether forks were refused; without one the user's tasks are counted
// against RLIMIT_NPROC, and only when forced or when the tree is big.
func TestLimitReached(t *testing.T) {
	t.Parallel()
	cg := t.TempDir()
	events := filepath.Join(cg, "pids.events")
	if err := os.WriteFile(events, []byte("max 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l := procLimit{pids: 100}
	if msg := l.reached(cg, 0, true); msg != "" {
		t.Errorf("max 0: %q, want nothing", msg)
	}
	if err := os.WriteFile(events, []byte("max 17\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if msg := l.reached(cg, 0, false); msg == "" {
		t.Errorf("max 17: nothing said")
	}
	// This test binary alone has several threads: a limit of 2 is reached
	// (other processes of this uid come and go; they only add).
	if mine := userTasks(os.Getuid()); mine < 2 {
		t.Fatalf("userTasks(%d) = %d", os.Getuid(), mine)
	}
	at := procLimit{nproc: 2, own: 66, uid: os.Getuid()}
	if msg := at.reached("", 0, true); msg == "" {
		t.Errorf("a limit of 2: nothing said")
	}
	if msg := at.reached("", 0, false); msg != "" {
		t.Errorf("an unforced look at a tree of 0 processes scanned /proc: %q", msg)
	}
	above := procLimit{nproc: 1 << 40, uid: os.Getuid()}
	if msg := above.reached("", 1<<40, true); msg != "" {
		t.Errorf("far below the limit: %q", msg)
	}
}

// TestSetPidsMax: where the job's cgroup has pids.max (the pids controller
// is on), it gets the job's RLIMIT_NPROC, or half the kernel's pid limit
// when there is none; without the file nothing is written.
func TestSetPidsMax(t *testing.T) {
	t.Parallel()
	cg := &jobCgroup{dir: t.TempDir(), fd: -1}
	if n := cg.setPidsMax(procLimit{nproc: 136}); n != 0 {
		t.Errorf("no pids controller: wrote %d", n)
	}
	file := filepath.Join(cg.dir, "pids.max")
	if err := os.WriteFile(file, []byte("max\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := cg.setPidsMax(procLimit{nproc: 136}); n != 136 {
		t.Errorf("with RLIMIT_NPROC 136: wrote %d", n)
	}
	if b, _ := os.ReadFile(file); string(b) != "136" {
		t.Errorf("pids.max holds %q", b)
	}
	half := min(readUintFile("/proc/sys/kernel/pid_max"), readUintFile("/proc/sys/kernel/threads-max")) / 2
	if n := cg.setPidsMax(procLimit{}); n != half || half == 0 {
		t.Errorf("without RLIMIT_NPROC: wrote %d, want %d", n, half)
	}
}
