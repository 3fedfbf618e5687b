package jobs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/internal/testtimeout"
	"github.com/jobdeck/jobdeck/model"
)

// Helpers of the shared adversarial cases (cases_test.go).

// procCase runs one case script as a job.
type procCase struct {
	t      *testing.T
	tb     *Table
	dir    string
	marker string
	id     model.JobID
}

func newProcCase(t *testing.T, tb *Table, dir string) *procCase {
	return &procCase{t: t, tb: tb, dir: dir, marker: fmt.Sprintf("pcase-jd%d-%s", os.Getpid(), strings.ReplaceAll(t.Name(), "/", "-"))}
}

// start runs `bash <script> args…` (or, with raw, the given command text)
// with this test's marker.
func (c *procCase) start(spec model.Spec) model.Report {
	c.t.Helper()
	spec.Command = "export PROC_CASE_MARKER=" + c.marker + "; " + spec.Command
	r := start(c.t, c.tb, spec)
	c.id = r.Job.ID
	return r
}

func (c *procCase) script(name string, args ...string) string {
	return "bash " + filepath.Join(c.dir, name) + " " + strings.Join(args, " ")
}

// emit returns the command text a case prints with --emit-command.
func (c *procCase) emit(name string, args ...string) string {
	c.t.Helper()
	out, err := exec.Command("bash", append([]string{filepath.Join(c.dir, name), "--emit-command"}, args...)...).Output()
	if err != nil {
		c.t.Fatal(err)
	}
	return strings.TrimRight(string(out), "\n")
}

// waitLine waits for a line matching re.
func (c *procCase) waitLine(re string, d time.Duration) model.Report {
	c.t.Helper()
	r, err := c.tb.Status(c.t.Context(), c.id, model.StatusOptions{Wait: d, Until: re, Lines: 2000, HasSince: true})
	if err != nil {
		c.t.Fatal(err)
	}
	if r.Wait.Reason != model.WaitMatched {
		c.t.Fatalf("no line matching %q within %v (%v):\n%s", re, d, r.Wait.Reason, plainText(r))
	}
	return r
}

// waitDone waits until the job is done and returns its full report.
func (c *procCase) waitDone(d time.Duration) model.Report {
	c.t.Helper()
	// d is a coarse bound on a loaded machine, scaled under -race.
	waitFor(c.t, testtimeout.Scale(d), "job to finish", func() bool { return snap(c.t, c.tb, c.id).Done })
	r, err := c.tb.Status(c.t.Context(), c.id, model.StatusOptions{Lines: 2000})
	if err != nil {
		c.t.Fatal(err)
	}
	return r
}

func (c *procCase) kill(grace time.Duration) (model.Report, time.Duration) {
	c.t.Helper()
	t0 := time.Now()
	r, err := c.tb.Kill(c.t.Context(), c.id, model.KillOptions{Grace: &grace})
	if err != nil {
		c.t.Fatal(err)
	}
	return r, time.Since(t0)
}

// checkLeftovers runs the shared checker with this test's marker.
func (c *procCase) checkLeftovers(wait int, ports ...int) {
	c.t.Helper()
	args := []string{"-m", c.marker, "-x", fmt.Sprint(os.Getpid()), "-w", fmt.Sprint(wait)}
	for _, p := range ports {
		args = append(args, "-p", fmt.Sprint(p))
	}
	if code, out := testkit.CheckLeftovers(c.t, c.dir, args...); code != 0 {
		c.t.Errorf("check-leftovers: exit status %d\n%s", code, out)
	}
}

func wantLines(t *testing.T, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("report lacks %q:\n%s", w, text)
		}
	}
}

// interleaveCase runs case 29 once, checks that every line is marked with
// its stream and that each stream's order is exact, and returns the first
// 20 lines (the slow part), comma-separated, in the order jobdeck has them.
func interleaveCase(t *testing.T, c *procCase) string {
	t.Helper()
	c.start(model.Spec{Command: c.script("29-stderr-interleave.sh")})
	r := c.waitDone(10 * time.Second)
	var outs, errs []string
	for _, l := range r.Page.Lines {
		s := string(l.Text)
		switch {
		case strings.HasPrefix(s, "OUT"):
			if l.Stream != model.StreamOut {
				t.Errorf("%q marked as %v", s, l.Stream)
			}
			outs = append(outs, s)
		case strings.HasPrefix(s, "ERR"):
			if l.Stream != model.StreamErr {
				t.Errorf("%q marked as %v", s, l.Stream)
			}
			errs = append(errs, s)
		}
	}
	if len(outs) != 210 || len(errs) != 210 || outs[209] != "OUT burst 200" || errs[209] != "ERR burst 200" {
		t.Fatalf("per-stream counts/order: %d %d", len(outs), len(errs))
	}
	for i := 1; i <= 200; i++ {
		if outs[9+i] != fmt.Sprintf("OUT burst %d", i) || errs[9+i] != fmt.Sprintf("ERR burst %d", i) {
			t.Fatalf("per-stream order broken at burst %d", i)
		}
	}
	c.checkLeftovers(1)
	return strings.Join(lineTexts(model.Page{Lines: r.Page.Lines[:20]}), ",")
}
