package jobs

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// finishedJob runs command to the end in a fresh table and returns it.
func finishedJob(t *testing.T, command string) *Table {
	t.Helper()
	tb := newTable(t, Options{StartWait: -1})
	start(t, tb, model.Spec{Command: command, NoTTY: true})
	waitFor(t, 10*time.Second, "the job to end", func() bool { return snap(t, tb, 0).Done })
	return tb
}

// testRun prints 3000 lines, five of them failures.
const testRun = `for i in $(seq 1 3000); do case $i in 400|1200|1201|2500|2999) echo "--- FAIL: Test$i";; *) echo "ok $i";; esac; done`

func TestGrep(t *testing.T) {
	t.Parallel()
	tb := finishedJob(t, testRun)
	r, err := tb.Status(t.Context(), 0, model.StatusOptions{Grep: "FAIL"})
	if err != nil {
		t.Fatal(err)
	}
	// The ring holds the last 2000 lines: the failure at 400 was dropped.
	g := r.Read.Grep
	if g == nil || g.Matches != 4 {
		t.Fatalf("grep = %+v, want the 4 matches held", g)
	}
	if got := strings.Join(lineTexts(r.Page), ","); got != "--- FAIL: Test1200,--- FAIL: Test1201,--- FAIL: Test2500,--- FAIL: Test2999" {
		t.Fatalf("grep lines: %s (dropped %d)", got, r.Page.Dropped)
	}
	if fmt.Sprint(g.Matched) != "[1200 1201 2500 2999]" || r.Page.Dropped != 1000 || r.Page.Next != 3000 {
		t.Fatalf("matched %v dropped %d next %d", g.Matched, r.Page.Dropped, r.Page.Next)
	}

	// Context lines come with each match, merged where they overlap; the
	// newest match's unit is kept first.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Grep: "FAIL", Context: 1, Lines: 2})
	if got := strings.Join(lineTexts(r.Page), ","); got != "ok 2499,--- FAIL: Test2500,ok 2501,ok 2998,--- FAIL: Test2999,ok 3000" {
		t.Fatalf("context: %s", got)
	}
	if r.Page.Skipped != 2 || fmt.Sprint(r.Read.Grep.Matched) != "[2500 2999]" {
		t.Fatalf("skipped %d matches, matched %v", r.Page.Skipped, r.Read.Grep.Matched)
	}
	// head: the oldest matches; more says how many follow.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Grep: "FAIL", Context: 1, Head: 1})
	if got := strings.Join(lineTexts(r.Page), ","); got != "ok 1199,--- FAIL: Test1200,--- FAIL: Test1201" || r.Page.More != 3 || r.Page.Next != 1200 {
		t.Fatalf("head: %s more %d next %d", got, r.Page.More, r.Page.Next)
	}
	// With since, only lines after it are searched.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Grep: "FAIL", HasSince: true, Since: 2500})
	if r.Read.Grep.Matches != 1 || lineTexts(r.Page)[0] != "--- FAIL: Test2999" {
		t.Fatalf("since 2500: %+v %v", r.Read.Grep, lineTexts(r.Page))
	}
	// Negative control: a pattern that matches nothing.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Grep: "PANIC"})
	if r.Read.Grep.Matches != 0 || len(r.Page.Lines) != 0 || r.Page.Skipped != 0 {
		t.Fatalf("no match: %+v %v", r.Read.Grep, lineTexts(r.Page))
	}
}

func TestByteBudget(t *testing.T) {
	t.Parallel()
	// 60 lines of 12000 bytes, each numbered at both ends.
	tb := finishedJob(t, `for i in $(seq 1 60); do printf 'L%02d%s%02dE\n' $i "$(head -c 11994 /dev/zero | tr '\0' x)" $i; done`)
	r, err := tb.Status(t.Context(), 0, model.StatusOptions{Lines: 60, MaxBytes: 16 << 10, LineBytes: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, l := range r.Page.Lines {
		total += len(l.Text)
		if len(l.Text) != 1<<10 || l.Cut != 12000-1<<10 || l.CutAt != 512 {
			t.Fatalf("line %d: %d bytes, cut %d at %d", l.Seq, len(l.Text), l.Cut, l.CutAt)
		}
		if !bytes.HasPrefix(l.Text, fmt.Appendf(nil, "L%02d", l.Seq)) || !bytes.HasSuffix(l.Text, fmt.Appendf(nil, "%02dE", l.Seq)) {
			t.Fatalf("line %d keeps its head and tail: %q…%q", l.Seq, l.Text[:8], l.Text[len(l.Text)-8:])
		}
	}
	// The newest 16 lines fit; the 44 before are left out, by bytes.
	if n := len(r.Page.Lines); n != 16 || total > 16<<10 || r.Page.Lines[n-1].Seq != 60 || r.Page.Skipped != 44 || r.Read.ByBytes != 44 {
		t.Fatalf("%d lines, %d bytes, skipped %d (by bytes %d)", n, total, r.Page.Skipped, r.Read.ByBytes)
	}
	// With head, the oldest 16 fit, not the newest; the 44 after are
	// more, read on from the cursor.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Head: 60, MaxBytes: 16 << 10, LineBytes: 1 << 10})
	if n := len(r.Page.Lines); n != 16 || r.Page.Lines[0].Seq != 1 || r.Page.Lines[n-1].Seq != 16 || r.Page.More != 44 || r.Page.Skipped != 0 || r.Page.Next != 16 {
		t.Fatalf("head: %d lines from %d, more %d, skipped %d, next %d", n, r.Page.Lines[0].Seq, r.Page.More, r.Page.Skipped, r.Page.Next)
	}
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Head: 60, HasSince: true, Since: 48, MaxBytes: 16 << 10, LineBytes: 1 << 10})
	if n := len(r.Page.Lines); n != 12 || r.Page.Lines[0].Seq != 49 || r.Page.More != 0 || r.Page.Next != 60 {
		t.Fatalf("head since 48: %d lines from %d, more %d, next %d", n, r.Page.Lines[0].Seq, r.Page.More, r.Page.Next)
	}
	// The newest line always fits, cut to the budget.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{MaxBytes: 1000})
	if len(r.Page.Lines) != 1 || len(r.Page.Lines[0].Text) != 1000 || r.Page.Lines[0].Seq != 60 {
		t.Fatalf("tiny budget: %d lines", len(r.Page.Lines))
	}
	// Negative control: without a budget, whole lines.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Lines: 2})
	if len(r.Page.Lines) != 2 || len(r.Page.Lines[0].Text) != 12000 || r.Page.Lines[0].Cut != 0 {
		t.Fatalf("no budget: %d lines of %d bytes", len(r.Page.Lines), len(r.Page.Lines[0].Text))
	}
}

func TestUntilNewestMatchAfterCursor(t *testing.T) {
	t.Parallel()
	tb := finishedJob(t, "echo ready 1; echo other; echo ready 3; echo tail")
	wait := func(after uint64) *model.WaitResult {
		r, err := tb.Status(t.Context(), 0, model.StatusOptions{Wait: 200 * time.Millisecond, Until: "ready", After: after, HasAfter: true})
		if err != nil {
			t.Fatal(err)
		}
		return r.Wait
	}
	// The whole ring: the newest match wins.
	if w := wait(0); w.Reason != model.WaitMatched || w.Match.Seq != 3 || w.Job != 0 {
		t.Fatalf("after 0: %+v", w)
	}
	// After the last match nothing more matches: the job is over.
	if w := wait(3); w.Reason != model.WaitEnded {
		t.Fatalf("after 3: %+v", w)
	}
	if w := wait(1); w.Reason != model.WaitMatched || w.Match.Seq != 3 {
		t.Fatalf("after 1: %+v", w)
	}
}

func TestWaitAny(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: -1})
	// Nothing live: at once.
	w, _, err := tb.WaitAny(t.Context(), model.AnyOptions{Wait: 10 * time.Second})
	if err != nil || w.Reason != model.WaitIdle || w.Waited > time.Second {
		t.Fatalf("idle: %+v %v", w, err)
	}
	start(t, tb, model.Spec{Command: "sleep 30"})
	start(t, tb, model.Spec{Command: "sleep 1; echo bye"})
	w, list, err := tb.WaitAny(t.Context(), model.AnyOptions{Wait: 20 * time.Second})
	if err != nil || w.Reason != model.WaitEnded || w.Job != 1 || len(list) != 2 || !list[1].Done {
		t.Fatalf("any end: %+v %v", w, err)
	}
	// until: a line of any job, the newest after each job's cursor.
	start(t, tb, model.Spec{Command: "sleep 0.5; echo listening on 8080; sleep 30"})
	w, _, _ = tb.WaitAny(t.Context(), model.AnyOptions{Wait: 20 * time.Second, Until: "listening|bye"})
	if w.Reason != model.WaitMatched || w.Job != 1 || string(w.Match.Text) != "bye" {
		t.Fatalf("any until (finished job's line first): %+v", w)
	}
	w, _, _ = tb.WaitAny(t.Context(), model.AnyOptions{Wait: 20 * time.Second, Until: "listening|bye", After: map[model.JobID]uint64{1: 1}})
	if w.Reason != model.WaitMatched || w.Job != 2 || string(w.Match.Text) != "listening on 8080" {
		t.Fatalf("any until: %+v", w)
	}
	// Negative control: nothing matches, the wait runs out.
	w, _, _ = tb.WaitAny(t.Context(), model.AnyOptions{Wait: 300 * time.Millisecond, Until: "never"})
	if w.Reason != model.WaitTimeout {
		t.Fatalf("timeout: %+v", w)
	}
}

func TestKillReadsAfterCursor(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: "seq 1 5; trap 'echo bye; exit 0' TERM; sleep 30 & wait"})
	waitFor(t, 5*time.Second, "the lines", func() bool { return snap(t, tb, 0).Lines == 5 })
	r, err := tb.Kill(t.Context(), 0, model.KillOptions{Read: model.StatusOptions{HasSince: true, Since: 5}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(lineTexts(r.Page), ","); got != "bye" {
		t.Fatalf("kill report after line 5: %q", got)
	}
}
