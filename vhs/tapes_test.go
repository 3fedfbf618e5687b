//go:build unix

package vhs

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	testkit.RemoveBuilds()
	os.Exit(code)
}

// jobdeckDir builds github.com/jobdeck/jobdeck and the tapes' dev server
// (demo-server, vhs/demoserver) once per test process, and returns the
// directory that holds both, to go on the tapes' PATH.
func jobdeckDir(t testing.TB) string {
	t.Helper()
	testkit.Build(t, "github.com/jobdeck/jobdeck", "jobdeck")
	testkit.Build(t, "github.com/jobdeck/jobdeck/vhs/demoserver", "demo-server")
	return testkit.BinDir(t)
}

// TestTapes replays every *.tape in this directory, in parallel, and compares
// each Screenshot with testdata/<tape>/<name>.golden (-update rewrites them).
func TestTapes(t *testing.T) {
	tapes, err := filepath.Glob("*.tape")
	if err != nil || len(tapes) == 0 {
		t.Fatalf("no tapes found (%v)", err)
	}
	bin := jobdeckDir(t)
	for _, path := range tapes {
		name := strings.TrimSuffix(path, ".tape")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tp, err := ReadTape(path)
			if err != nil {
				t.Fatal(err)
			}
			snaps, err := tp.Run(t.Context(), Options{PathPrepend: []string{bin}, Home: t.TempDir(), Dir: appDir(t), Logf: t.Logf})
			if errors.Is(err, ErrRequire) && len(snaps) == 0 {
				// A fresh machine may lack a program a story needs (setsid
				// is util-linux, not coreutils): say so instead of failing.
				t.Skipf("skipping: %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(snaps) == 0 {
				t.Fatalf("%s has no Screenshot step, so it checks nothing; add one", path)
			}
			for _, s := range snaps {
				if err := CheckGolden("testdata", s, *testkit.Update); err != nil {
					t.Error(err)
				}
			}
			for _, stale := range StaleGoldens("testdata", tp.Name, tp.Screenshots) {
				if *testkit.Update {
					if err := os.Remove(stale); err != nil {
						t.Error(err)
					}
					continue
				}
				t.Errorf("%s: no Screenshot produces it any more; delete it or run go test ./vhs -update", stale)
			}
		})
	}
}

// TestTapesParseWithVHS checks every tape with VHS v0.10.0's own parser
// (zero errors) and the runner's stricter checks.
func TestTapesParseWithVHS(t *testing.T) {
	t.Parallel()
	tapes, _ := filepath.Glob("*.tape")
	for _, path := range tapes {
		if _, err := ReadTape(path); err != nil {
			t.Error(err)
		}
	}
}

// TestTapesValidateWithRealVHS runs `vhs validate` on every tape when a vhs
// binary is on PATH (it needs neither ttyd nor a browser for that).
func TestTapesValidateWithRealVHS(t *testing.T) {
	t.Parallel()
	vhsBin, err := exec.LookPath("vhs")
	if err != nil {
		t.Skip("vhs not on PATH; to run this check: GOBIN=$(mktemp -d) go install github.com/charmbracelet/vhs@v0.10.0 and put GOBIN on PATH")
	}
	tapes, _ := filepath.Glob("*.tape")
	out, err := exec.CommandContext(t.Context(), vhsBin, append([]string{"validate"}, tapes...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("vhs validate: %v\n%s", err, out)
	}
}

// appDir is where a tape's shell starts: a directory named "app" (so the
// console's title, which names its session after the worktree's
// directory, reads "jobs · app" on every machine) that reaches the demo
// scripts as testdata/…, as vhs/ does.
func appDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "app")
	abs, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(abs, filepath.Join(dir, "testdata")); err != nil {
		t.Fatal(err)
	}
	return dir
}
