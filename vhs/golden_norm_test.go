//go:build unix

package vhs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestNormalizeGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"│▸● 0 running 0:03 ticker.sh │", "│▸● 0 running m:ss ticker.sh │"},
		{"job 1 exited 0 12:07 make", "job 1 exited 0 m:ss make"},
		{"job 2 running 1:02:03 x", "job 2 running m:ss x"},
		{"0:00 0:01", "m:ss m:ss"},
		{"(0:05)", "(m:ss)"},
		{"tick 01, 100x30, 1:2, a1:23, 1:234", "tick 01, 100x30, 1:2, a1:23, 1:234"},
	} {
		if got := NormalizeGolden(tc.in); got != tc.want {
			t.Errorf("NormalizeGolden(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCheckGoldenNormalises: a golden and a screen that differ only in an
// elapsed time match; one that differs in a word does not (the negative
// control).
func TestCheckGoldenNormalises(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	snap := func(line string) Snapshot {
		return Snapshot{Tape: "norm", Name: "shot", Cols: 40, Rows: 1, Lines: []string{line}}
	}
	if err := CheckGolden(dir, snap("job 0 running 0:03 x"), true); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "norm", "shot.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "# norm.tape: shot.png at 40x1 cells\njob 0 running m:ss x\n"; string(b) != want {
		t.Errorf("golden written as %q, want %q", b, want)
	}
	if err := CheckGolden(dir, snap("job 0 running 0:59 x"), false); err != nil {
		t.Errorf("another elapsed time: %v", err)
	}
	if err := CheckGolden(dir, snap("job 0 exited 0 0:03 x"), false); !errors.Is(err, ErrGoldenMismatch) {
		t.Errorf("another state: got %v, want ErrGoldenMismatch", err)
	}
}

// TestNormalizePort: the replay's port reads $PORT after a colon, at the
// same width; the same digits elsewhere, and other ports, stay.
func TestNormalizePort(t *testing.T) {
	t.Parallel()
	lines := []string{"│▸● 0 (web) :43127 running", "http://127.0.0.1:43127/ and :431270", "   43127  all work and no play", "listening :43128"}
	got := normalizePort(append([]string(nil), lines...), "43127")
	want := []string{"│▸● 0 (web) :$PORT running", "http://127.0.0.1:$PORT/ and :431270", "   43127  all work and no play", "listening :43128"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %q, want %q", i, got[i], want[i])
		}
	}
	if p, err := freePort(); err != nil || len(p) != 5 {
		t.Errorf("freePort = %q, %v; want five digits", p, err)
	}
}
