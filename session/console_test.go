//go:build unix

package session

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// TestConsoleRestartRemoveClear drives the console dialect's restart,
// remove and clear through a real session process: the new run keeps the
// console's environment and directory and names the old run; the core's
// refusals come back as the same sentinels.
func TestConsoleRestartRemoveClear(t *testing.T) {
	w := newWorld(t)
	t.Setenv(EnvDir, w.sdir) // not parallel: Attach finds the directory here
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	r, err := Attach(ctx, JoinOptions{Target: Target{Worktree: w.wt}, Exe: w.bin, Dir: w.wt,
		Env: w.env("RUN_MARK=" + w.mark), Name: "console", Linger: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := w.job(`echo "run $RUN_MARK in $PWD"; sleep 30`)
	old, err := r.Start(ctx, model.Spec{Command: cmd, Name: "web", NoWait: true})
	if err != nil {
		t.Fatal(err)
	}
	want := "run " + w.mark + " in " + w.wt
	waitFor(t, 10*time.Second, "the first run's line", func() bool { return hasLine(ctx, r, old.Job.ID, want) })
	rep, err := r.Restart(ctx, old.Job.ID, model.RestartOptions{NoWait: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Job.RestartOf == nil || *rep.Job.RestartOf != old.Job.ID || rep.Job.Name != "web" || rep.Job.Owner != "console" {
		t.Fatalf("new run: %+v", rep.Job)
	}
	waitFor(t, 10*time.Second, "the new run's line", func() bool { return hasLine(ctx, r, rep.Job.ID, want) })
	if err := r.Remove(ctx, rep.Job.ID); !errors.Is(err, model.ErrRunning) {
		t.Errorf("Remove of a live job: %v; want ErrRunning", err)
	}
	if _, err := r.Restart(ctx, old.Job.ID, model.RestartOptions{}); !errors.Is(err, model.ErrRunning) || !strings.Contains(err.Error(), "restarted already") {
		t.Errorf("second restart of the old run: %v", err)
	}
	gone, err := r.Clear(ctx)
	if err != nil || !slices.Equal(gone, []model.JobID{old.Job.ID}) {
		t.Errorf("Clear: %v, %v; want the old run", gone, err)
	}
	if err := r.Remove(ctx, old.Job.ID); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("Remove of a cleared job: %v; want ErrNotFound", err)
	}
	if _, err := r.Kill(ctx, rep.Job.ID, model.KillOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := r.Remove(ctx, rep.Job.ID); err != nil {
		t.Errorf("Remove of the finished run: %v", err)
	}
}

func hasLine(ctx context.Context, r *Remote, id model.JobID, text string) bool {
	p, err := r.Read(ctx, id, model.ReadRequest{})
	if err != nil {
		return false
	}
	for _, l := range p.Lines {
		if string(l.Text) == text {
			return true
		}
	}
	return false
}
