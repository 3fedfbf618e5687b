package jobs

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// consoleEnv makes the test binary act as a small console (see
// TestConsoleChild) when set.
const consoleEnv = "JOBDECK_TEST_CONSOLE"

// runConsoleCrash starts a console process that runs case 34, SIGKILLs it
// once the case is READY, and requires every process of the job to be gone
// within grace + 2 s.
func runConsoleCrash(t *testing.T, dir, marker string, port int) {
	marker = fmt.Sprintf("%s-jd%d", marker, os.Getpid())
	cmd := exec.Command(os.Args[0], "-test.run=^TestConsoleChild$")
	cmd.Env = append(os.Environ(), consoleEnv+"="+fmt.Sprintf("export PROC_CASE_MARKER=%s PROC_CASE_PORT=%d; bash %s", marker, port, filepath.Join(dir, "34-console-crash.sh")))
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "CONSOLE READY") {
		if time.Now().After(deadline) {
			t.Fatalf("the console's job was not READY within 20 s; console output:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	killed := time.Now()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	check := exec.Command("bash", filepath.Join(dir, "check-leftovers.sh"), "-m", marker, "-p", fmt.Sprint(port), "-w", "6")
	res, err := check.CombinedOutput()
	if err != nil {
		t.Fatalf("after the console was SIGKILLed: %v\n%s", err, res)
	}
	if d := time.Since(killed); d > 2*time.Second+2*time.Second+time.Second {
		t.Errorf("the tree took %v to go (grace 2 s + 2 s allowed)", d)
	}
}

// TestConsoleChild is the console process of runConsoleCrash; it only runs
// when started by it.
func TestConsoleChild(t *testing.T) {
	command := os.Getenv(consoleEnv)
	if command == "" {
		t.Skip("only runs as the child of a console-crash test")
	}
	tb, err := New(Options{Grace: new(2 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Start(context.Background(), model.Spec{Command: command}); err != nil {
		t.Fatal(err)
	}
	r, _ := tb.Status(context.Background(), 0, model.StatusOptions{Wait: 20 * time.Second, Until: "READY", HasSince: true})
	fmt.Println(plainText(r))
	fmt.Println("CONSOLE READY")
	time.Sleep(time.Minute) // until the parent SIGKILLs this process
}

// hasControls reports whether s holds a byte or rune no reader should get:
// C0 controls other than tab and newline, DEL, or C1 controls.
func hasControls(s string) bool {
	for _, r := range s {
		if (r < 0x20 && r != '\t' && r != '\n') || (r >= 0x7f && r <= 0x9f) {
			return true
		}
	}
	return false
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// freePorts returns the first of n consecutive loopback ports that were free
// a moment ago (the cases' default ports may be taken by another run).
func freePorts(t *testing.T, n int) int {
	t.Helper()
	for range 50 {
		var lns []net.Listener
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		first := ln.Addr().(*net.TCPAddr).Port
		ok := first+n <= 65535
		for i := 1; ok && i < n; i++ {
			l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", first+i))
			if err != nil {
				ok = false
				break
			}
			lns = append(lns, l)
		}
		for _, l := range lns {
			l.Close()
		}
		if ok {
			return first
		}
	}
	t.Fatal("no free ports")
	return 0
}

// catches reports whether a live process whose argv contains name has a
// handler for sig (SigCgt in /proc/<pid>/status).
func catches(name string, sig syscall.Signal) bool { return inMask(name, "SigCgt", sig) }

// ignores reports whether a process whose command line contains name
// ignores sig.
func ignores(name string, sig syscall.Signal) bool { return inMask(name, "SigIgn", sig) }

// inMask reports whether sig is in the mask field (SigCgt, SigIgn) of
// /proc/<pid>/status of a process whose command line (arguments joined by
// spaces) contains name.
func inMask(name, field string, sig syscall.Signal) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !strings.Contains(strings.ReplaceAll(string(cmd), "\x00", " "), name) {
			continue
		}
		status, _ := os.ReadFile("/proc/" + e.Name() + "/status")
		m := regexp.MustCompile(field + `:\s*([0-9a-f]+)`).FindSubmatch(status)
		if m == nil {
			continue
		}
		if mask, err := strconv.ParseUint(string(m[1]), 16, 64); err == nil && mask&(1<<(uint(sig)-1)) != 0 {
			return true
		}
	}
	return false
}
