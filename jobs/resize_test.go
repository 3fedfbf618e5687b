package jobs

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// sizeScript prints the pty's size ("rows cols", from stty on its
// stdout: the job has no controlling terminal) at start and on every
// SIGWINCH.
const sizeScript = `trap 'stty -F /dev/stdout size' WINCH; stty -F /dev/stdout size; while :; do sleep 0.05; done`

// TestResizeSizesThePtyAndSignals starts a job at a given size, resizes
// it, and reads the new size from inside the job: the pty is sized and
// the job got SIGWINCH (its trap printed). Jobs on pipes and finished
// jobs have nothing to size; unknown jobs and bad sizes are errors.
func TestResizeSizesThePtyAndSignals(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	r := start(t, tb, model.Spec{Command: sizeScript, Size: model.TermSize{Cols: 100, Rows: 30}, NoWait: true})
	id := r.Job.ID
	has := func(want string) func() bool {
		return func() bool {
			p, _ := tb.Read(id, model.ReadRequest{})
			return slices.Contains(lineTexts(p), want)
		}
	}
	waitFor(t, 5*time.Second, "the start size 30 100", has("30 100"))
	if err := tb.Resize(id, model.TermSize{Cols: 54, Rows: 20}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, "the new size 20 54 (SIGWINCH)", has("20 54"))
	// A restart starts the new run at the size the old one had last.
	rr, err := tb.Restart(t.Context(), id, model.RestartOptions{NoWait: true})
	if err != nil {
		t.Fatal(err)
	}
	id = rr.Job.ID
	waitFor(t, 5*time.Second, "the restarted run at 20 54", has("20 54"))

	pipe := start(t, tb, model.Spec{Command: "sleep 30", NoTTY: true, NoWait: true})
	if err := tb.Resize(pipe.Job.ID, model.TermSize{Cols: 80, Rows: 24}); err != nil {
		t.Errorf("resize of a job on pipes: %v, want nil", err)
	}
	if _, err := tb.Kill(t.Context(), id, model.KillOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := tb.Resize(id, model.TermSize{Cols: 80, Rows: 24}); err != nil {
		t.Errorf("resize of a finished job: %v, want nil", err)
	}
	if err := tb.Resize(99, model.TermSize{Cols: 80, Rows: 24}); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("resize of job 99: %v, want ErrNotFound", err)
	}
	for _, bad := range []model.TermSize{{}, {Cols: 0, Rows: 24}, {Cols: 80, Rows: model.MaxTermCells + 1}} {
		var ie *model.InputError
		if err := tb.Resize(pipe.Job.ID, bad); !errors.As(err, &ie) || ie.Field != model.FieldSize {
			t.Errorf("resize to %v: %v, want an InputError on %s", bad, err, model.FieldSize)
		}
	}
	var ie *model.InputError
	if _, err := tb.Start(t.Context(), model.Spec{Command: "true", Size: model.TermSize{Cols: -1, Rows: 5}}); !errors.As(err, &ie) || !errors.Is(err, model.ErrBadSpec) {
		t.Errorf("start at -1×5: %v, want a bad spec", err)
	}
}
