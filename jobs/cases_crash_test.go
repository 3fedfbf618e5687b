package jobs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
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
	var out testkit.Buffer
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
	if code, res := testkit.CheckLeftovers(t, dir, "-m", marker, "-p", fmt.Sprint(port), "-w", "6"); code != 0 {
		t.Fatalf("after the console was SIGKILLed: exit status %d\n%s", code, res)
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
