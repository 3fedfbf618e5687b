//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// TestLaunchCommandsLeaveArgv starts the console as `jobdeck -- <cmd>` in
// a pty: once it runs, its command line holds no job text (so `pkill -f`
// in a job cannot match it), the job runs, and quitting (q, y) leaves
// nothing behind.
func TestLaunchCommandsLeaveArgv(t *testing.T) {
	mark := fmt.Sprintf("jdlaunch-%d-%d", os.Getpid(), time.Now().UnixNano())
	// Two commands of 100 KB: together over the 128 KiB one environment
	// string may hold.
	pad := strings.Repeat("x", 100<<10)
	job := "export JOBDECK_LAUNCH_TEST=" + mark + "; : '" + pad + "'; sleep 30 # " + mark
	other := ": '" + pad + "'; true"
	cmd := exec.Command(os.Args[0], "--grace", "1s", "--", job, other)
	cmd.Env = append(os.Environ(), asJobdeckEnv+"=1", "TERM=xterm-256color", testSessionDir(t))
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer ptmx.Close()
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// cmd.Wait runs in its own goroutine: the test must not read
	// cmd.ProcessState, which Wait writes; reaped says whether it returned.
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	reaped := false
	defer func() {
		if !reaped {
			_ = cmd.Process.Kill()
			<-exited
		}
	}()

	waitUntil(t, 10*time.Second, "the job's sleep to run", func() bool { return len(testkit.EnvMarked("JOBDECK_LAUNCH_TEST="+mark)) > 0 })
	argv, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "cmdline"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(argv, []byte(mark)) || bytes.Contains(argv, []byte("sleep")) {
		t.Fatalf("jobdeck's argv still holds the job's command: %q", argv)
	}
	if !strings.Contains(string(argv), "--grace\x001s") {
		t.Errorf("the flags were lost in the re-exec: %q", argv)
	}
	environ, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "environ"))
	if !bytes.Contains(environ, []byte(launchEnv+"=")) {
		t.Errorf("expected the commands to travel through the file named by %s", launchEnv)
	}
	comm, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "comm"))
	if want := filepath.Base(os.Args[0]); !strings.HasPrefix(want, strings.TrimSpace(string(comm))) || len(comm) < 2 {
		t.Errorf("process name %q after the re-exec, want %q (not \"exe\")", comm, want)
	}

	// Quit: q asks because a job runs; y stops it.
	waitUntil(t, 10*time.Second, "the console to draw", func() bool { mu.Lock(); defer mu.Unlock(); return screen.Len() > 0 })
	if _, err := ptmx.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 10*time.Second, "the quit question", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return bytes.Contains(screen.Bytes(), []byte("and quit?"))
	})
	if _, err := ptmx.Write([]byte("y")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		reaped = true
		if err != nil {
			t.Errorf("jobdeck exited with %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("jobdeck did not exit after q, y")
	}
	waitUntil(t, 5*time.Second, "the job's processes to go", func() bool { return len(testkit.EnvMarked("JOBDECK_LAUNCH_TEST="+mark)) == 0 })
	mu.Lock()
	drawn := screen.Len()
	mu.Unlock()
	t.Logf("argv after the re-exec: %q; the console drew %d bytes", argv, drawn)
}

// waitUntil is testkit.WaitFor.
var waitUntil = testkit.WaitFor

// testSessionDir is the environment entry that gives a test's jobdeck
// processes a session directory of their own (never the developer's).
func testSessionDir(t *testing.T) string {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// Cleanups run last-registered first: the sessions end before the
	// directory goes.
	t.Cleanup(func() { waitSessionsEnd(t, dir, 30*time.Second) })
	return "JOBDECK_SESSION_DIR=" + dir
}

// waitSessionsEnd waits until no session in dir holds its lock.
func waitSessionsEnd(t *testing.T, dir string, d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		locks, _ := filepath.Glob(filepath.Join(dir, "*.lock"))
		live := false
		for _, l := range locks {
			if f, err := os.Open(l); err == nil {
				if syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) != nil {
					live = true
				}
				f.Close()
			}
		}
		if !live {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("a session in %s did not end within %v", dir, d)
}
