package jobs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/internal/testtimeout"
	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/supervisor"
)

// TestMain lets the test binary act as the per-job supervisor, as the
// jobdeck binary does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == supervisor.Arg {
		os.Exit(supervisor.Main())
	}
	supervisor.Hygiene()
	os.Exit(m.Run())
}

// deathWait is the StartWait of tables whose tests need a command that
// dies at once to be done in its start report. Start returns as soon as
// the job is done, so it costs nothing while the machine keeps up; the
// default 300 ms is not enough on a loaded machine under -race.
var deathWait = testtimeout.Scale(5 * time.Second)

// waitFor is testkit.WaitFor, under the name this package's tests use.
var waitFor = testkit.WaitFor

// newTable returns a Table for one test; at the end it is closed and the
// test fails if any process of its session is left.
func newTable(t *testing.T, opts Options) *Table {
	t.Helper()
	if opts.Grace == nil {
		opts.Grace = new(time.Second)
	}
	tb, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := tb.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
		testkit.AssertNoLeftovers(t, "JOBDECK_SESSION="+tb.Session(), 5*time.Second)
	})
	return tb
}

// lineTexts returns the plain text of every line of a page.
func lineTexts(p model.Page) []string {
	out := make([]string, 0, len(p.Lines))
	for _, l := range p.Lines {
		out = append(out, string(l.Text))
	}
	return out
}

// snap returns a job's snapshot or fails.
func snap(t *testing.T, tb *Table, id model.JobID) model.Snapshot {
	t.Helper()
	s, ok := tb.Snapshot(id)
	if !ok {
		t.Fatalf("job %d not found", id)
	}
	return s
}

// start starts a job or fails.
func start(t *testing.T, tb *Table, spec model.Spec) model.Report {
	t.Helper()
	r, err := tb.Start(t.Context(), spec)
	if err != nil {
		t.Fatalf("Start(%q): %v", spec.Command, err)
	}
	return r
}

// hasTool reports whether a program is on PATH.
func hasTool(name string) bool {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return true
		}
	}
	return false
}

func needTools(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if !hasTool(n) {
			t.Skipf("%s is not installed; this test needs it (CI installs it in .ci/run)", n)
		}
	}
}

// uniqueMarker is a per-test marker to put in job commands.
func uniqueMarker(t *testing.T) string {
	return fmt.Sprintf("jdtest-%d-%d", os.Getpid(), time.Now().UnixNano()%1e9)
}

// resolve resolves a selector or fails.
func resolve(t *testing.T, tb *Table, sel string) model.JobID {
	t.Helper()
	id, err := tb.Resolve(sel)
	if err != nil {
		t.Fatalf("Resolve(%q): %v", sel, err)
	}
	return id
}

// plainText is a report's header and lines as the simplest plain text
// ("> " or "! " and each line's plain text, the open lines last), for
// tests that look for output. The words of notes and markers belong to the
// edges (serve, ui/present), which test them.
func plainText(r model.Report) string {
	var b strings.Builder
	b.WriteString(r.Job.Header(time.Now()))
	b.WriteByte('\n')
	for _, set := range [][]model.Line{r.Page.Lines, r.Page.Partial} {
		for _, l := range set {
			b.WriteString(l.Stream.Marker())
			b.WriteString(sanitize.Plain(l.Text))
			b.WriteByte('\n')
		}
	}
	return b.String()
}
