package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/jobdeck/jobdeck"

// deps lists the packages of this module that pkg depends on, directly or
// not; with tests, the imports of its test files count too.
func deps(t *testing.T, pkg string, tests bool) []string {
	t.Helper()
	args := []string{"list", "-deps", "-f", "{{.ImportPath}}"}
	if tests {
		args = append(args, "-test")
	}
	out, err := exec.Command("go", append(args, module+"/"+pkg)...).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pkg, err)
	}
	var own []string
	for _, p := range strings.Fields(string(out)) {
		p, _, _ = strings.Cut(p, " ") // "pkg [pkg.test]" forms
		if strings.HasPrefix(p, module+"/") && !strings.HasSuffix(p, ".test") {
			own = append(own, strings.TrimPrefix(p, module+"/"))
		}
	}
	slices.Sort(own)
	return slices.Compact(own)
}

// TestImportGraph keeps ARCHITECTURE.md §3 honest: the UI and the server reach the
// core only through interfaces of their own, model is a leaf, the
// supervisor knows nothing of the layers above it, and each edge makes its
// own words: the console's presentation (ui/present) never imports the
// agent's (serve), nor the reverse.
func TestImportGraph(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	rules := []struct {
		pkg       string
		tests     bool
		forbidden []string
	}{
		{"model", true, []string{"jobs", "jobs/sanitize", "supervisor", "ui", "serve", "vhs"}},
		{"supervisor", true, []string{"jobs", "jobs/sanitize", "ui", "serve", "vhs"}},
		// The supervisor process's side never depends on jobdeck's.
		{"supervisor/process", true, []string{"supervisor", "model", "jobs", "ports", "ui", "serve", "session", "vhs"}},
		{"supervisor/internal/sys", true, []string{"supervisor", "supervisor/process", "model", "jobs", "ports", "ui", "serve", "session", "vhs"}},
		{"jobs", false, []string{"ui", "serve", "vhs"}},
		{"ui", true, []string{"supervisor", "jobs", "serve"}},
		{"ui/present", true, []string{"supervisor", "jobs", "serve", "ui", "vhs"}},
		{"serve", true, []string{"supervisor", "jobs", "ui", "ui/present"}},
		{"session", false, []string{"ui", "ui/present", "vhs"}},
		// The line filter knows JSON-RPC, not jobdeck.
		{"serve/stdio", true, []string{"model", "jobs", "jobs/sanitize", "supervisor", "ports", "ui", "ui/present", "serve", "session", "words", "vhs"}},
		// The sentences both edges show depend on structure alone.
		{"words", true, []string{"jobs", "supervisor", "ports", "ui", "ui/present", "serve", "session", "vhs"}},
		{"ports", true, []string{"jobs", "jobs/sanitize", "supervisor", "ui", "ui/present", "serve", "session", "vhs"}},
	}
	for _, r := range rules {
		got := deps(t, r.pkg, r.tests)
		for _, f := range r.forbidden {
			if slices.Contains(got, f) {
				t.Errorf("%s depends on %s (its deps: %v)", r.pkg, f, got)
			}
		}
	}
	if got := deps(t, "model", true); len(slices.DeleteFunc(got, func(p string) bool { return p == "model" })) > 0 {
		t.Errorf("model imports project packages: %v", got)
	}
	// Test support is for tests (and vhs, which is test code itself).
	for _, pkg := range []string{"model", "supervisor", "supervisor/process", "jobs", "jobs/sanitize", "ports", "serve", "session", "ui", "ui/present", "words", "serve/stdio"} {
		for _, f := range []string{"internal/testkit", "internal/testtimeout"} {
			if slices.Contains(deps(t, pkg, false), f) {
				t.Errorf("%s (not its tests) depends on %s", pkg, f)
			}
		}
	}
	if got := deps(t, "supervisor/wire", true); len(slices.DeleteFunc(got, func(p string) bool { return p == "supervisor/wire" })) > 0 {
		t.Errorf("supervisor/wire imports project packages: %v", got)
	}
}
