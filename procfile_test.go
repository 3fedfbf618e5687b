//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// TestParseProcfile: entries become named specs in order; comments, blank
// lines and CRLF line ends are skipped; each malformed file is refused
// with its line number and what to write instead.
func TestParseProcfile(t *testing.T) {
	t.Parallel()
	good := "# the app\r\nweb: npm run dev -- --port 5173\r\n\n  worker:   go run ./cmd/worker  \n#db: postgres\ndocs:mkdocs serve -a 127.0.0.1:8001\n"
	specs, err := parseProcfile("Procfile", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Spec{
		{Name: "web", Command: "npm run dev -- --port 5173"},
		{Name: "worker", Command: "go run ./cmd/worker"},
		{Name: "docs", Command: "mkdocs serve -a 127.0.0.1:8001"},
	}
	if !reflect.DeepEqual(specs, want) {
		t.Errorf("specs %+v\nwant %+v", specs, want)
	}
	for _, c := range []struct{ text, want string }{
		{"", "the Procfile Procfile has no entries: add lines such as `web: npm run dev`"},
		{"# only a comment\n\n", "has no entries"},
		{"web: a\nnpm run dev\n", "Procfile:2: \"npm run dev\" has no name: write the entry as `name: command`, e.g. `web: npm run dev`"},
		{"web: a\n\nWEB: b\n", "Procfile:3: the name \"WEB\" is used by line 1 already: give each entry a name of its own"},
		{"web:\n", "Procfile:1: the entry \"web\" has no command"},
		{"my web: x\n", "Procfile:1: \"my web\" is not a name"},
		{"12: x\n", "Procfile:1: \"12\" reads as a job ID: give the entry a name with a letter"},
	} {
		_, err := parseProcfile("Procfile", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want %q", c.text, err, c.want)
		}
	}
}

// TestProcfileFlag: jobdeck -f (or --procfile) with a file that does not
// exist or is malformed says so and exits 2 before anything starts (no
// session is joined: the sessions directory stays empty); the entries run
// in the Procfile's directory.
func TestProcfileFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "Procfile.bad")
	if err := os.WriteFile(bad, []byte("web: npm run dev\noops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-f", filepath.Join(dir, "nope")}, "does not exist: give the path of a file of `name: command` lines"},
		{[]string{"--procfile", bad}, "Procfile.bad:2: \"oops\" has no name"},
		{[]string{"--serve", "-f", bad}, "--serve takes no commands"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, strings.NewReader(""), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("jobdeck %q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
	good := filepath.Join(dir, "Procfile")
	if err := os.WriteFile(good, []byte("web: npm run dev\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	specs, _, err := launchSpecs(good, []string{"make watch"})
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Spec{{Name: "web", Command: "npm run dev", Dir: dir}, {Command: "make watch"}}
	if !reflect.DeepEqual(specs, want) {
		t.Errorf("specs %+v, want %+v", specs, want)
	}
}

// TestVersionFlag: --version prints the module version and, where the
// build recorded one, the VCS revision, and starts nothing.
func TestVersionFlag(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"--version"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := strings.TrimSpace(stdout.String())
	if !strings.HasPrefix(out, "jobdeck ") || len(out) <= len("jobdeck ") || strings.Contains(out, "\n") || stderr.Len() != 0 {
		t.Errorf("--version printed %q (stderr %q); want one line \"jobdeck <version> [<revision>]\"", out, stderr.String())
	}
}

// TestLaunchClash: before the console opens, a Procfile entry whose name
// (any case) belongs to a running job of the session is refused with its
// Procfile line and the job, and nothing starts; a finished job's name,
// or a command given after --, is no clash.
func TestLaunchClash(t *testing.T) {
	t.Parallel()
	specs, from, err := parseProcfileAt("Procfile", []byte("# dev\nweb: npm run dev\n\napi: go run ./cmd/api\n"))
	if err != nil {
		t.Fatal(err)
	}
	specs = append(specs, model.Spec{Command: "make watch"})
	from = append(from, "")
	running := []model.Snapshot{
		{ID: 0, Name: "WEB", State: model.StateRunning},
		{ID: 1, Name: "api", State: model.StateExited, Exit: &model.Exit{}, Done: true},
	}
	list := func(context.Context) ([]model.Snapshot, error) { return running, nil }
	err = launchClash(t.Context(), list, specs, from)
	if err == nil || !strings.Contains(err.Error(), `Procfile:2: the name "web" belongs to running job 0 (WEB)`) ||
		strings.Contains(err.Error(), "api") || !strings.Contains(err.Error(), "nothing was started") {
		t.Fatalf("clash: %v", err)
	}
	running[0].State, running[0].Exit, running[0].Done = model.StateExited, &model.Exit{}, true
	if err := launchClash(t.Context(), list, specs, from); err != nil {
		t.Fatalf("finished jobs' names are free: %v", err)
	}
}
