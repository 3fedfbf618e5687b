package jobs

import (
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

func TestWaitUntilReturnsOnMatch(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: "echo starting; sleep 2; echo ready; sleep 30"})
	t0 := time.Now()
	r, err := tb.Status(t.Context(), 0, model.StatusOptions{Wait: 20 * time.Second, Until: `^ready$`})
	took := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Wait == nil || r.Wait.Reason != model.WaitMatched || string(r.Wait.Match.Text) != "ready" {
		t.Fatalf("wait = %+v\n%s", r.Wait, plainText(r))
	}
	if took < time.Second || took > 6*time.Second {
		t.Fatalf("wait took %v, want about 2 s (not the 20 s timeout)", took)
	}
	// Negative control: a pattern that never matches times out.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Wait: 300 * time.Millisecond, Until: `never`})
	if r.Wait.Reason != model.WaitTimeout {
		t.Fatalf("want a timeout: %+v", r.Wait)
	}
}

func TestWaitEndsWithJob(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: -1})
	start(t, tb, model.Spec{Command: "sleep 1; echo bye; exit 4"})
	r, err := tb.Status(t.Context(), 0, model.StatusOptions{Wait: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if r.Wait.Reason != model.WaitEnded || r.Job.Exit == nil || r.Job.Exit.Code != 4 || r.Wait.Waited > 8*time.Second {
		t.Fatalf("wait: %+v exit %v\n%s", r.Wait, r.Job.Exit, plainText(r))
	}
}

func TestWaitUntilWithSinceSeesEarlierLines(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: "echo ready; sleep 30"})
	waitFor(t, 5*time.Second, "the line", func() bool { return snap(t, tb, 0).Lines == 1 })
	r, _ := tb.Status(t.Context(), 0, model.StatusOptions{Wait: 10 * time.Second, Until: "ready", HasSince: true})
	if r.Wait.Reason != model.WaitMatched || r.Wait.Waited > time.Second {
		t.Fatalf("with since=0 the earlier line matches at once: %+v", r.Wait)
	}
	// Negative control: without since, only new lines count.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Wait: 300 * time.Millisecond, Until: "ready"})
	if r.Wait.Reason != model.WaitTimeout {
		t.Fatalf("without since an old line must not match: %+v", r.Wait)
	}
}

func TestWaitUntilOutlivesTheLeader(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: `(sleep 1; echo late-ready; sleep 30) & exit 0`})
	waitFor(t, 5*time.Second, "the leader's exit", func() bool { return snap(t, tb, 0).Exit != nil })
	r, _ := tb.Status(t.Context(), 0, model.StatusOptions{Wait: 10 * time.Second, Until: "late-ready"})
	if r.Wait.Reason != model.WaitMatched {
		t.Fatalf("until must keep waiting while the leader's children print: %+v\n%s", r.Wait, plainText(r))
	}
	// Without until, the wait is for the whole tree, which still runs.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Wait: 300 * time.Millisecond})
	if r.Wait.Reason != model.WaitTimeout || !strings.Contains(plainText(r), "exited 0, 1 still running") {
		t.Fatalf("without until, a job whose leader left a process running has not ended: %+v\n%s", r.Wait, plainText(r))
	}
}

func TestWaitEndsWhenTheTreeIsGone(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: `(sleep 1; echo bye) & exit 0`})
	r, _ := tb.Status(t.Context(), 0, model.StatusOptions{Wait: 10 * time.Second})
	if r.Wait.Reason != model.WaitEnded || r.Wait.Waited < 500*time.Millisecond || !strings.Contains(plainText(r), "> bye") {
		t.Fatalf("the wait ends with the last process, after its output: %+v\n%s", r.Wait, plainText(r))
	}
}
