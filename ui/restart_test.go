package ui

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// paneTitles are the titles of the panes on screen, in focus order (the
// rows of pane frames that start with "job ").
func paneTitles(h *harness) []model.JobID {
	shown, _ := h.m.paneRects()
	ids := make([]model.JobID, len(shown))
	for i, s := range shown {
		ids[i] = s.ID
	}
	return ids
}

// TestRestartKey covers r: it asks while the job runs (n cancels, y
// restarts), the new run takes the old run's pane and the selection, the
// old run stays in the list and shows in that pane when selected, a
// finished job restarts at once, a job being stopped is refused with what
// to do, and /job-restart does not ask.
func TestRestartKey(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3) // 0 npm run dev (running), 1 make test (exited 1), 2 flood (running)
	h := newHarness(t, c, 120, 40, Options{})
	h.press("r")
	if f := h.footer(2); !strings.Contains(f, "restart job 0 (npm run dev)? y/n") {
		t.Fatalf("r on a running job should ask:\n%s", f)
	}
	h.press("n")
	if h.m.confirm != nil || len(c.restarts) != 0 {
		t.Fatalf("n should cancel: restarts %q", c.restarts)
	}
	h.press("r", "y")
	if !slices.Equal(c.restarts, []string{"0"}) {
		t.Fatalf("Restart calls %q, want [0]", c.restarts)
	}
	if h.m.current != 3 {
		t.Errorf("the new run 3 should be selected, current is %d", h.m.current)
	}
	if got := paneTitles(h); !slices.Equal(got, []model.JobID{3, 1, 2}) {
		t.Errorf("panes show %v; want the new run 3 in job 0's place: [3 1 2]", got)
	}
	s := h.screen()
	if !strings.Contains(s, "job 3 running 0:00 npm run dev") || !strings.Contains(s, "⊘ 0 ") {
		t.Errorf("the new run's pane and the old run in the list:\n%s", s)
	}
	if c.jobs[3].snap.Owner != DefaultOwner || c.jobs[0].snap.Stop.By != DefaultOwner {
		t.Errorf("the stop and the new run should be the console's: %+v, %q", c.jobs[0].snap.Stop, c.jobs[3].snap.Owner)
	}

	// Selecting the old run shows it in the same pane.
	h.press("k", "k", "k")
	if h.m.current != 0 {
		t.Fatalf("k×3 should select job 0, current %d", h.m.current)
	}
	if got := paneTitles(h); !slices.Equal(got, []model.JobID{0, 1, 2}) {
		t.Errorf("panes show %v with the old run selected; want [0 1 2]", got)
	}
	h.press("r")
	if h.m.confirm != nil {
		t.Error("r on a finished job should not ask")
	}
	if !slices.Equal(c.restarts, []string{"0", "0"}) {
		t.Errorf("Restart calls %q", c.restarts)
	}

	// A job being stopped: refused here, with what to do.
	c.update(2, func(s *model.Snapshot) { s.State, s.Stop = model.StateStopping, &model.Stop{By: "claude"} })
	h.pump()
	h.m.current = 2
	h.press("r")
	if f := h.footer(2); h.m.confirm != nil || !strings.Contains(f, "job 2 (flood) is being stopped: restart it once it ended") {
		t.Errorf("r on a job being stopped:\n%s", f)
	}

	h.command("job-restart 1")
	if h.m.confirm != nil || c.restarts[len(c.restarts)-1] != "1" {
		t.Errorf("/job-restart should not ask: confirm %v, restarts %q", h.m.confirm, c.restarts)
	}
}

// TestRestartByAnotherClient: a restart an agent asked for moves the
// selection to the new run when the old run was selected, once.
func TestRestartByAnotherClient(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3)
	h := newHarness(t, c, 120, 40, Options{})
	h.press("j", "j") // job 2
	if _, err := c.Restart(t.Context(), 2, model.RestartOptions{By: "claude"}); err != nil {
		t.Fatal(err)
	}
	h.pump()
	if h.m.current != 3 {
		t.Fatalf("the selection should follow the new run 3, current %d", h.m.current)
	}
	if got := paneTitles(h); !slices.Equal(got, []model.JobID{0, 1, 3}) {
		t.Errorf("panes show %v; want [0 1 3]", got)
	}
	h.press("k") // the old run, on purpose: it stays selected
	c.emit(3, model.StreamOut, "more")
	h.pump()
	h.fire(frameMsg{})
	if h.m.current != 2 {
		t.Errorf("an old run selected on purpose should stay selected, current %d", h.m.current)
	}
}

// TestRemoveAndClearKeys covers d (a running job is refused with what to
// do; a finished one leaves the list and the selection moves beside it)
// and /clear.
func TestRemoveAndClearKeys(t *testing.T) {
	t.Parallel()
	c := fixtureCore(8) // finished: 1, 4, 6; 5 left a process running
	h := newHarness(t, c, 120, 40, Options{})
	h.press("d")
	if f := h.footer(2); len(c.removes) != 0 || !strings.Contains(f, "job 0 is still running: stop it first (x), then remove it") {
		t.Fatalf("d on a running job:\n%s", f)
	}
	h.press("j") // job 1, exited 1
	h.press("d")
	if !slices.Equal(c.removes, []string{"1"}) {
		t.Fatalf("Remove calls %q, want [1]", c.removes)
	}
	if _, ok := h.m.snapshot(1); ok || h.m.current != 2 {
		t.Errorf("job 1 should be gone and job 2 selected; current %d", h.m.current)
	}
	if f := h.footer(2); !strings.Contains(f, "removed job 1 from the list") {
		t.Errorf("status after d:\n%s", f)
	}
	h.command("clear")
	if c.clears != 1 || h.m.palette != nil {
		t.Fatalf("/clear: %d calls, palette %v", c.clears, h.m.palette)
	}
	var ids []model.JobID
	for _, s := range h.m.jobs {
		ids = append(ids, s.ID)
	}
	if !slices.Equal(ids, []model.JobID{0, 2, 3, 5, 7}) {
		t.Errorf("after /clear the list holds %v; want the live jobs [0 2 3 5 7]", ids)
	}
	if f := h.footer(2); !strings.Contains(f, "removed 2 finished jobs from the list") {
		t.Errorf("status after /clear:\n%s", f)
	}
	h.command("clear")
	if f := h.footer(2); !strings.Contains(f, "no finished jobs to clear") {
		t.Errorf("a second /clear:\n%s", f)
	}
}

// TestRestartDeletedDir: a restart the core refuses because the job's
// directory is gone (deleted since the job started) says which directory
// no longer exists and what to do, not the core's bare "cwd does not
// exist: give an existing directory" (there is nothing to give in a
// console).
func TestRestartDeletedDir(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "app")
	c := newFakeCore(fixedNow)
	c.add(model.Snapshot{Command: "make watch", Dir: dir, State: model.StateExited, Exit: &model.Exit{}, Done: true,
		Started: t0, Ended: t0.Add(time.Second)}, 0)
	_, c.restartErr = model.CheckDir(dir, "/") // what the core says of a deleted directory
	if c.restartErr == nil {
		t.Fatal("the directory should not exist")
	}
	h := newHarness(t, c, 120, 40, Options{})
	h.press("r")
	if h.m.confirm != nil {
		h.press("y")
	}
	f := h.m.message // wrapped onto several footer rows on screen
	for _, want := range []string{dir + ", no longer exists", "mkdir -p " + dir, "/background"} {
		if !strings.Contains(f, want) {
			t.Errorf("the message should say %q:\n%s", want, f)
		}
	}
}
