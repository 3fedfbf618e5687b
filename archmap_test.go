package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// treePackages are the module's packages: each directory (testdata and
// hidden ones left out) with a Go file that is not a test, as its path
// from the module's root ("main" for the root).
func treePackages(t *testing.T, root string) []string {
	t.Helper()
	var pkgs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		if dir == "." {
			dir = "main"
		}
		pkgs = append(pkgs, filepath.ToSlash(dir))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(pkgs)
	return slices.Compact(pkgs)
}

// mapPackages are the packages the table of ARCHITECTURE.md §3 names:
// the first cell of each of its rows, "| `jobs` | …".
func mapPackages(doc string) []string {
	_, sec, _ := strings.Cut(doc, "\n## 3.")
	sec, _, _ = strings.Cut(sec, "\n## 4.")
	var pkgs []string
	for _, line := range strings.Split(sec, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell, _, _ := strings.Cut(strings.TrimPrefix(line, "| `"), "`")
		pkgs = append(pkgs, cell)
	}
	slices.Sort(pkgs)
	return pkgs
}

// mapDifference says what one list has that the other has not.
func mapDifference(tree, named []string) (unnamed, gone []string) {
	for _, p := range tree {
		if !slices.Contains(named, p) {
			unnamed = append(unnamed, p)
		}
	}
	for _, p := range named {
		if !slices.Contains(tree, p) {
			gone = append(gone, p)
		}
	}
	return unnamed, gone
}

// TestArchitectureMap keeps ARCHITECTURE.md §3 true to the tree: every
// package of the module has a row in its table, and every row names a
// package that exists.
func TestArchitectureMap(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	unnamed, gone := mapDifference(treePackages(t, "."), mapPackages(string(doc)))
	if len(unnamed) > 0 {
		t.Errorf("packages without a row in ARCHITECTURE.md §3: %v: add what each owns", unnamed)
	}
	if len(gone) > 0 {
		t.Errorf("ARCHITECTURE.md §3 names packages the tree does not have: %v: remove or rename their rows", gone)
	}
}

// TestArchitectureMapFails is the negative control: a package added to
// the tree, or a row left for one removed, is found.
func TestArchitectureMapFails(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"main.go", "jobs/table.go", "jobs/table_test.go", "extra/x.go", "only/x_test.go", "jobs/testdata/y.go"} {
		path := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc := "# map\n\n## 3. Packages\n\n| package | owns |\n| --- | --- |\n| `jobs` | the core |\n| `main` | flags |\n| `gone` | was here |\n\n## 4. Next\n| `after` | not §3 |\n"
	unnamed, gone := mapDifference(treePackages(t, root), mapPackages(doc))
	if !slices.Equal(unnamed, []string{"extra"}) || !slices.Equal(gone, []string{"gone"}) {
		t.Fatalf("unnamed %v, gone %v; want [extra] and [gone]", unnamed, gone)
	}
}
