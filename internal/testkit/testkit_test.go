package testkit

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestPoll(t *testing.T) {
	t.Parallel()
	n := 0
	if !Poll(time.Second, func() bool { n++; return n == 3 }) || n != 3 {
		t.Errorf("Poll stopped after %d calls", n)
	}
	start := time.Now()
	if Poll(50*time.Millisecond, func() bool { return false }) || time.Since(start) < 50*time.Millisecond {
		t.Error("a condition that never holds must time out after the deadline")
	}
}

func TestFreePorts(t *testing.T) {
	t.Parallel()
	ports := FreePorts(t, 3)
	if len(ports) != 3 || ports[1] != ports[0]+1 || ports[2] != ports[0]+2 {
		t.Errorf("FreePorts(3) = %v, want three consecutive ports", ports)
	}
}

// TestCompareGolden: update writes the normalised text, the same text then
// matches, another one differs with a diff, and a missing file says so.
func TestCompareGolden(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	if err := CompareGolden(path, "a\nb\n", false, nil); !errors.Is(err, ErrGoldenMissing) {
		t.Fatalf("missing: %v", err)
	}
	upper := func(s string) string { return strings.ReplaceAll(s, "b", "B") }
	if err := CompareGolden(path, "a\nb\n", true, upper); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "a\nB\n" {
		t.Errorf("written %q", b)
	}
	if err := CompareGolden(path, "a\nb\n", false, upper); err != nil {
		t.Errorf("the same text: %v", err)
	}
	err := CompareGolden(path, "a\nc\n", false, upper)
	if !errors.Is(err, ErrGoldenMismatch) {
		t.Fatalf("another text: %v", err)
	}
	for _, want := range []string{"    0 │a│", "-   1 │B│", "+   1 │c│"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("diff lacks %q:\n%v", want, err)
		}
	}
}

// TestLeftoversAndSignals: a process carrying a marker is found, by argv
// and by environment, with what it ignores; once it is gone, nothing is
// (the negative control).
func TestLeftoversAndSignals(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	t.Parallel()
	mark := fmt.Sprintf("testkit-mark-%d", os.Getpid())
	// The argv mark is split in bash's own command line ("-ar""gv"), so
	// that only the sleep after exec matches it: bash matched it before,
	// and was asked for its signals before its trap ran (CI failed once).
	cmd := exec.Command("bash", "-c", `trap "" HUP; exec -a `+mark+`-ar""gv sleep 30`)
	cmd.Env = append(os.Environ(), "TESTKIT_MARK="+mark)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	if !Poll(10*time.Second, func() bool {
		return len(Marked(mark+"-argv")) == 1 && len(EnvMarked("TESTKIT_MARK="+mark)) == 1
	}) {
		t.Fatalf("the marked sleep: Marked %v, EnvMarked %v", Marked(mark+"-argv"), EnvMarked("TESTKIT_MARK="+mark))
	}
	if !Ignores(mark+"-argv", syscall.SIGHUP) || Ignores(mark+"-argv", syscall.SIGTERM) || Catches(mark+"-argv", syscall.SIGTERM) {
		t.Error("the sleep ignores SIGHUP only, and catches nothing")
	}
	if len(EnvMarked("TESTKIT_MARK="+mark+"x")) != 0 {
		t.Error("EnvMarked matches whole entries only")
	}
	cmd.Process.Kill()
	cmd.Wait()
	AssertNoLeftovers(t, mark, 5*time.Second)
}

func TestModuleRoot(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(filepath.Join(ModuleRoot(t), "go.mod")); err != nil {
		t.Error(err)
	}
}
