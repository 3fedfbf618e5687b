package testkit

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Update is the -update flag of every test binary that imports testkit:
// golden files are rewritten from the run instead of compared.
var Update = flag.Bool("update", false, "rewrite the golden files from this run instead of comparing with them")

// ErrGoldenMismatch means a text differs from its golden file.
var ErrGoldenMismatch = errors.New("differs from its golden file; if the change is intended, run the test again with -update")

// ErrGoldenMissing means a text has no golden file yet.
var ErrGoldenMissing = errors.New("golden file missing; create it by running the test with -update")

// CompareGolden compares got with the golden file at path, both passed
// through normalize (nil: as they are). With update it writes the
// normalised got instead (making its directory) and returns nil. A
// difference is an error wrapping ErrGoldenMismatch with Diff's rendering;
// a missing file, one wrapping ErrGoldenMissing with got.
func CompareGolden(path, got string, update bool, normalize func(string) string) error {
	if normalize == nil {
		normalize = func(s string) string { return s }
	}
	got = normalize(got)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("write golden: %w", err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			return fmt.Errorf("write golden: %w", err)
		}
		return nil
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s: %w\ngot:\n%s", path, ErrGoldenMissing, got)
	}
	if err != nil {
		return fmt.Errorf("read golden: %w", err)
	}
	if w := normalize(string(want)); w != got {
		return fmt.Errorf("%s: %w\n%s", path, ErrGoldenMismatch, Diff(w, got))
	}
	return nil
}

// Golden is CompareGolden for a test: got against the file at path,
// rewritten with -update; a difference fails t at once.
func Golden(t testing.TB, path, got string) {
	t.Helper()
	if err := CompareGolden(path, got, *Update, nil); err != nil {
		t.Fatal(err)
	}
}

// Diff renders want and got line by line, as screens are fixed grids:
// unchanged lines with two spaces, changed ones as a "-" line (want)
// followed by a "+" line (got). Each line shows its number (from 0) and
// ends in "│", so trailing spaces are visible.
func Diff(want, got string) string {
	w := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	g := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	var b strings.Builder
	b.WriteString("--- golden\n+++ got\n")
	for i := range max(len(w), len(g)) {
		wl, wok := lineAt(w, i)
		gl, gok := lineAt(g, i)
		switch {
		case wok && gok && wl == gl:
			fmt.Fprintf(&b, "  %3d │%s│\n", i, wl)
		default:
			if wok {
				fmt.Fprintf(&b, "- %3d │%s│\n", i, wl)
			}
			if gok {
				fmt.Fprintf(&b, "+ %3d │%s│\n", i, gl)
			}
		}
	}
	return b.String()
}

func lineAt(ls []string, i int) (string, bool) {
	if i < len(ls) {
		return ls[i], true
	}
	return "", false
}
