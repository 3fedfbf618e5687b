package testkit

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// EnvCases names a directory that replaces ../shared/cases/proc (for a
// checkout of the shared cases elsewhere).
const EnvCases = "JOBDECK_CASES"

// ModuleRoot returns the directory of go.mod at or above the working
// directory (a test runs in its package's directory). It skips t when
// there is none.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("cannot find the module root (no go.mod above the test's directory)")
		}
		dir = parent
	}
}

// ProcCases returns the directory of the shared adversarial process cases
// (the numbered scripts and check-leftovers.sh): $JOBDECK_CASES, or
// ../shared/cases/proc next to the module root. It skips t, saying where it
// looked, when they are not there: they live next to the repository, not
// in it, and CI has them.
func ProcCases(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(EnvCases)
	if dir == "" {
		dir = filepath.Join(ModuleRoot(t), "..", "shared", "cases", "proc")
	}
	if _, err := os.Stat(filepath.Join(dir, "check-leftovers.sh")); err != nil {
		t.Skipf("no shared process cases at %s (they live in ../shared next to the repository, or in $%s; CI has them): skipping", dir, EnvCases)
	}
	return dir
}

// ProcCase returns the path of the case script name (such as
// "23-hostile-escapes.sh") in ProcCases; it skips t when the script is
// missing.
func ProcCase(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(ProcCases(t), name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared case script %s is missing: skipping", p)
	}
	return p
}

// CheckLeftovers runs the shared cases' check-leftovers.sh (in dir, as
// ProcCases returns it) with args, its own options (-m marker, -p port,
// -w seconds to wait, -x pid to leave out), and returns its exit status
// (0: nothing left) and what it printed. It fails t when bash cannot run
// it at all.
func CheckLeftovers(t testing.TB, dir string, args ...string) (int, string) {
	t.Helper()
	out, err := exec.Command("bash", append([]string{filepath.Join(dir, "check-leftovers.sh")}, args...)...).CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &ee):
		return ee.ExitCode(), string(out)
	}
	t.Fatalf("run check-leftovers.sh: %v", err)
	return -1, ""
}
