package jobs

import (
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testtimeout"
	"github.com/jobdeck/jobdeck/model"
)

// TestRestart: a restart stops the tree, then runs the same command with
// the same name, directory and environment as a new job that names the
// old one; the old run stays readable with its stop, the name means the
// new run, and a second restart of the old run points at the new one.
func TestRestart(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: -1})
	dir := t.TempDir()
	// The trap is set before the line the test waits for, so the restart's
	// SIGTERM always finds it.
	cmd := `trap 'echo bye; exit 0' TERM; echo "run $RUN_MARK in $PWD"; sleep 30 & wait`
	spec := model.Spec{Command: cmd, Name: "web", Dir: dir, Env: append(os.Environ(), "RUN_MARK=m1"), Owner: "agent"}
	old := start(t, tb, spec)
	waitLine(t, tb, old.Job.ID, "run m1 in "+dir)

	rep, err := tb.Restart(t.Context(), old.Job.ID, model.RestartOptions{By: "console"})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Job
	if s.ID != 1 || s.RestartOf == nil || *s.RestartOf != 0 {
		t.Fatalf("new run %d restarts %v; want job 1 restarting job 0", s.ID, s.RestartOf)
	}
	if s.Name != "web" || s.Dir != dir || s.Command != cmd || s.Owner != "console" || !s.Live() {
		t.Errorf("new run: name %q dir %q command %q owner %q live %v", s.Name, s.Dir, s.Command, s.Owner, s.Live())
	}
	waitLine(t, tb, s.ID, "run m1 in "+dir) // the old run's environment
	o := snap(t, tb, old.Job.ID)
	if o.Live() || o.Stop == nil || o.Stop.By != "console" || o.RestartOf != nil {
		t.Errorf("old run after the restart: live %v stop %+v restartOf %v", o.Live(), o.Stop, o.RestartOf)
	}
	if p, _ := tb.Read(old.Job.ID, model.ReadRequest{}); !slices.Contains(lineTexts(p), "bye") {
		t.Errorf("the old run's output is not readable: %q", lineTexts(p))
	}
	if id := resolve(t, tb, "web"); id != s.ID {
		t.Errorf("web means job %d; want the new run %d", id, s.ID)
	}
	if _, err := tb.Restart(t.Context(), old.Job.ID, model.RestartOptions{}); !errors.Is(err, ErrRunning) || !strings.Contains(err.Error(), "as job 1") {
		t.Errorf("a second restart of the old run: %v; want ErrRunning naming job 1", err)
	}

	// A finished job starts again at once.
	done := start(t, tb, model.Spec{Command: "echo once", Dir: dir})
	waitFor(t, testtimeout.Scale(10*time.Second), "the job to end", func() bool { return snap(t, tb, done.Job.ID).Done })
	again, err := tb.Restart(t.Context(), done.Job.ID, model.RestartOptions{NoWait: true})
	if err != nil {
		t.Fatal(err)
	}
	if again.Job.Owner != "" || again.Job.Stop != nil || *again.Job.RestartOf != done.Job.ID {
		t.Errorf("restart of a finished job: %+v", again.Job)
	}
	waitLine(t, tb, again.Job.ID, "once")
	if _, err := tb.Restart(t.Context(), 99, model.RestartOptions{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("restart of no job: %v", err)
	}
}

// TestRestartRefusals: a job being stopped is not restarted (the message
// says who stops it and what to do); two restarts asked at once start one
// run; a restart whose start is refused starts nothing and may be tried
// again.
func TestRestartRefusals(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: -1})
	stubborn := start(t, tb, model.Spec{Command: `trap '' TERM; echo up; sleep 30`})
	waitLine(t, tb, stubborn.Job.ID, "up")
	grace := 30 * time.Second
	go func() { _, _ = tb.Kill(t.Context(), stubborn.Job.ID, model.KillOptions{Grace: &grace, By: "claude"}) }()
	waitFor(t, testtimeout.Scale(10*time.Second), "the stop to begin", func() bool { return snap(t, tb, stubborn.Job.ID).Stop != nil })
	_, err := tb.Restart(t.Context(), stubborn.Job.ID, model.RestartOptions{})
	if !errors.Is(err, ErrRunning) || !strings.Contains(err.Error(), "being stopped (asked by claude): restart it once it ended") {
		t.Errorf("restart of a job being stopped: %v", err)
	}
	if _, err := tb.Kill(t.Context(), stubborn.Job.ID, model.KillOptions{Grace: new(time.Duration)}); err != nil {
		t.Fatal(err)
	}

	web := start(t, tb, model.Spec{Command: `echo up; sleep 30`, Name: "web"})
	waitLine(t, tb, web.Job.ID, "up")
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() { _, errs[i] = tb.Restart(t.Context(), web.Job.ID, model.RestartOptions{}) })
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Fatalf("two restarts at once: %v, %v; want exactly one to start", errs[0], errs[1])
	}
	refused := errs[0]
	if refused == nil {
		refused = errs[1]
	}
	if !errors.Is(refused, ErrRunning) {
		t.Errorf("the other restart: %v; want ErrRunning", refused)
	}
	live := 0
	for _, s := range tb.List() {
		if s.Live() {
			live++
		}
	}
	if live != 1 {
		t.Errorf("%d live jobs after two restarts at once; want 1", live)
	}

	// The name is taken by another job meanwhile: the old run is stopped,
	// nothing new starts, and the restart may be tried again later.
	gone := start(t, tb, model.Spec{Command: "echo x", Name: "api"})
	waitFor(t, testtimeout.Scale(10*time.Second), "the job to end", func() bool { return snap(t, tb, gone.Job.ID).Done })
	thief := start(t, tb, model.Spec{Command: "sleep 30", Name: "api"})
	if _, err := tb.Restart(t.Context(), gone.Job.ID, model.RestartOptions{}); !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), "not started again") {
		t.Errorf("restart into a taken name: %v", err)
	}
	if _, err := tb.Kill(t.Context(), thief.Job.ID, model.KillOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Restart(t.Context(), gone.Job.ID, model.RestartOptions{NoWait: true}); err != nil {
		t.Errorf("restart once the name is free: %v", err)
	}
}

// TestRemoveAndClear: finished jobs leave the table on request (an
// EventRemoved each, "removed" when asked for again); live ones stay and
// the refusal says to stop them first.
func TestRemoveAndClear(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: -1})
	sub := tb.Subscribe()
	defer sub.Close()
	live := start(t, tb, model.Spec{Command: "sleep 30"})
	var done []model.JobID
	for i, c := range []string{"echo a", "echo b", "exit 3"} {
		spec := model.Spec{Command: c}
		if i == 0 {
			spec.Name = "Pager"
		}
		done = append(done, start(t, tb, spec).Job.ID)
	}
	waitFor(t, testtimeout.Scale(10*time.Second), "three jobs to end", func() bool {
		for _, id := range done {
			if !snap(t, tb, id).Done {
				return false
			}
		}
		return true
	})
	if err := tb.Remove(live.Job.ID); !errors.Is(err, ErrRunning) || !strings.Contains(err.Error(), "stop it first") {
		t.Errorf("Remove of a live job: %v", err)
	}
	if err := tb.Remove(done[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Status(t.Context(), done[0], model.StatusOptions{}); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "removed") {
		t.Errorf("status of a removed job: %v", err)
	}
	// By name too: removed, not unknown, and for every client.
	if _, err := tb.Resolve("pager"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "was removed") || !strings.Contains(err.Error(), "every client") {
		t.Errorf("Resolve of a removed job's name: %v", err)
	}
	if got := tb.Clear(); !slices.Equal(got, done[1:]) {
		t.Errorf("Clear removed %v; want %v", got, done[1:])
	}
	if ids := idsOf(tb.List()); !slices.Equal(ids, []model.JobID{live.Job.ID}) {
		t.Errorf("after Clear the list holds %v; want only the live job", ids)
	}
	removed := map[model.JobID]bool{}
	deadline := time.Now().Add(testtimeout.Scale(5 * time.Second))
	for len(removed) < 3 && time.Now().Before(deadline) {
		for _, ev := range sub.Events() {
			if ev.Kind == model.EventRemoved {
				removed[ev.Job] = true
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	if len(removed) != 3 {
		t.Errorf("EventRemoved for %v; want the three finished jobs", removed)
	}
	if tb.Clear() != nil || tb.Dropped() != 0 {
		t.Errorf("a second Clear removed something, or removals counted as dropped (%d)", tb.Dropped())
	}
}

func idsOf(list []model.Snapshot) []model.JobID {
	var ids []model.JobID
	for _, s := range list {
		ids = append(ids, s.ID)
	}
	return ids
}

// waitLine waits until job id printed a line equal to text.
func waitLine(t *testing.T, tb *Table, id model.JobID, text string) {
	t.Helper()
	waitFor(t, testtimeout.Scale(10*time.Second), "line "+text, func() bool {
		p, err := tb.Read(id, model.ReadRequest{})
		return err == nil && slices.Contains(lineTexts(p), text)
	})
}

// TestStopHastened: a second stop with a shorter grace, while the first
// runs, is recorded as hastening it (who), the first asker kept.
func TestStopHastened(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: -1})
	rep := start(t, tb, model.Spec{Command: "trap '' TERM; echo ready; while :; do sleep 0.1; done"})
	id := rep.Job.ID
	waitFor(t, testtimeout.Scale(10*time.Second), "the trap to be set", func() bool { return snap(t, tb, id).Lines >= 1 })
	first := make(chan model.Report, 1)
	long := 30 * time.Second
	go func() {
		r, _ := tb.Kill(t.Context(), id, model.KillOptions{Grace: &long, By: "a"})
		first <- r
	}()
	waitFor(t, testtimeout.Scale(10*time.Second), "the first stop", func() bool { return snap(t, tb, id).Stop != nil })
	zero := time.Duration(0)
	r, err := tb.Kill(t.Context(), id, model.KillOptions{Grace: &zero, By: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Job.Stop; st == nil || st.By != "a" || st.Hastened != "b" || st.Grace != 0 {
		t.Errorf("stop after a hastening: %+v", st)
	}
	if r := <-first; r.Job.Stop == nil || r.Job.Stop.Hastened != "b" {
		t.Errorf("the first stop's report: %+v", r.Job.Stop)
	}
}
