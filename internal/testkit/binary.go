package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// EnvTestBin names a jobdeck binary for Jobdeck to return instead of
// building one.
const EnvTestBin = "JOBDECK_TEST_BIN"

// builds are the binaries this test binary built, by package.
var builds struct {
	mu   sync.Mutex
	dir  string
	done map[string]*build
}

type build struct {
	once sync.Once
	path string
	err  error
}

// Jobdeck returns the path of a jobdeck binary (the module's main
// package), built once per test binary by Build; $JOBDECK_TEST_BIN names
// one to use instead. It skips t without the go tool or bash (every
// jobdeck job runs in bash).
func Jobdeck(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv(EnvTestBin); bin != "" {
		return bin
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("this test runs jobdeck, whose jobs need bash: bash is not in PATH; skipping")
	}
	return Build(t, "github.com/jobdeck/jobdeck", "jobdeck")
}

// Build builds the package pkg as the program name, once per test binary
// (later calls return the same path), into BinDir, which the programs one
// test binary builds share, so it can go on a PATH. It skips t without the
// go tool and fails it when the build fails.
func Build(t testing.TB, pkg, name string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("this test builds %s: the go tool is not in PATH; skipping", name)
	}
	dir := BinDir(t)
	builds.mu.Lock()
	if builds.done == nil {
		builds.done = map[string]*build{}
	}
	b := builds.done[pkg]
	if b == nil {
		b = &build{}
		builds.done[pkg] = b
	}
	builds.mu.Unlock()
	b.once.Do(func() {
		b.path = filepath.Join(dir, name)
		out, err := exec.Command(goTool, "build", "-o", b.path, pkg).CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// BinDir returns the directory of this test binary's builds, made when
// first asked for: every user may read and search it (a test may run what
// it holds as another uid), and a test may put programs of its own there.
// RemoveBuilds removes it.
func BinDir(t testing.TB) string {
	t.Helper()
	builds.mu.Lock()
	defer builds.mu.Unlock()
	if builds.dir == "" {
		dir, err := os.MkdirTemp("", "jobdeck-test-bin-")
		if err == nil {
			err = os.Chmod(dir, 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
		builds.dir = dir
	}
	return builds.dir
}

// RemoveBuilds removes the directory Build made, if any: call it from
// TestMain once m.Run returns.
func RemoveBuilds() {
	builds.mu.Lock()
	defer builds.mu.Unlock()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
		builds.dir = ""
	}
}
