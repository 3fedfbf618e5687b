package serve

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// renderText is the text of rep rendered for client "me" with v's other
// settings (a 16 KiB budget unless v says).
func renderText(rep model.Report, v view) string {
	v.rep, v.client, v.now = rep, "me", t0.Add(2*time.Second)
	v.ww.now = v.now
	if v.budget == 0 {
		v.budget = model.DefaultResultBytes
	}
	return render(v).text
}

// TestReportText: the agent's text of a report, made from structure alone,
// line for line.
func TestReportText(t *testing.T) {
	t.Parallel()
	run := model.Snapshot{ID: 2, Command: "make", State: model.StateRunning, Started: t0, Owner: "me"}
	done := model.Snapshot{ID: 2, Command: "make", State: model.StateExited, Started: t0, Ended: t0.Add(time.Second), Exit: &model.Exit{}, Done: true, Owner: "me"}
	line := func(seq uint64, s model.Stream, text string) model.Line {
		return model.Line{Seq: seq, Stream: s, Text: []byte(text)}
	}
	withStop := done
	withStop.Exit = &model.Exit{Signal: 15}
	withStop.Stop = &model.Stop{At: t0, Grace: 5 * time.Second, TermSent: 3, KillSent: 1, Done: t0.Add(5 * time.Second), By: "console"}
	foreign := done
	foreign.Exit = &model.Exit{Signal: 9}
	lost := done
	lost.Err, lost.Notes = "the supervisor was lost", []string{"no cgroup v2 for the job (read-only); stops rely on the subreaper walk"}
	other := run
	other.Owner = "console"
	named := run
	named.Name, named.Command = "web", "npm run dev -- --port 5173 --host 0.0.0.0 --strictPort"
	ready := &model.Line{Seq: 1, Text: []byte("\x1b[1mready\x1b[0m"), Time: t0.Add(1500 * time.Millisecond)}
	grep := model.Report{Job: done, Page: model.Page{Lines: []model.Line{line(4, 0, "ok"), line(5, 0, "FAIL a"), line(9, 0, "FAIL b")}, Skipped: 1, Next: 10, Last: 10},
		Read: model.ReadInfo{Lo: 1, Hi: 10, Grep: &model.GrepResult{Matches: 3, Matched: []uint64{5, 9}}}}
	grep0 := model.Report{Job: done, Page: model.Page{Lines: []model.Line{line(5, 0, "FAIL a"), line(6, 0, "FAIL b"), line(9, 0, "FAIL c")}, Next: 10, Last: 10},
		Read: model.ReadInfo{From: 2, Lo: 3, Hi: 10, Grep: &model.GrepResult{Matches: 3, Matched: []uint64{5, 6, 9}}}}
	cases := []struct {
		name string
		r    model.Report
		v    view
		want string
	}{
		{"running: lines and the cursor", model.Report{Job: run, Page: model.Page{Lines: []model.Line{line(1, model.StreamOut, "\x1b[31mhi\x1b[0m"), line(2, model.StreamErr, "oops")}, Next: 2, Last: 2}}, view{},
			"job 2 running 0:02 make\n> hi\n! oops\n[next: job_status {\"id\":2,\"since\":2}]"},
		{"a head read: the call that pages on", model.Report{Job: run, Page: model.Page{Lines: []model.Line{line(4, model.StreamOut, "a")}, Next: 4, More: 5, Last: 9}, Read: model.ReadInfo{Head: true, From: 3}}, view{head: 1},
			"job 2 running 0:02 make\n> a\n[… 5 lines more: job_status {\"id\":2,\"since\":4,\"head\":1}]"},
		{"dropped and skipped: the call that reads them", model.Report{Job: done, Page: model.Page{Lines: []model.Line{line(3000, model.StreamOut, "a")}, Dropped: 2990, Skipped: 7, Next: 3000, Last: 3000}, Read: model.ReadInfo{From: 2992}}, view{},
			"job 2 exited 0 0:01 make\n[… 2990 lines dropped]\n> a\n[… 7 lines not shown (earlier): job_status {\"id\":2,\"since\":2992,\"head\":7}]"},
		{"no output", model.Report{Job: done}, view{}, "job 2 exited 0 0:01 make\n(no output)"},
		{"a kill after a full read", model.Report{Job: done, Page: model.Page{Next: 5, Last: 5}}, view{kill: true}, "job 2 exited 0 0:01 make\n(no new output)"},
		{"cut lines and a prompt", model.Report{Job: done, Page: model.Page{Lines: []model.Line{{Seq: 1, Text: []byte("x"), Dropped: 50_000_000}, {Seq: 2, Text: []byte("headtail"), Cut: 11264, CutAt: 4}}, Partial: []model.Line{{Text: []byte("Password: "), Partial: true}}, Last: 2}}, view{},
			"job 2 exited 0 0:01 make\n> x [… 47.7 MiB cut]\n> head [… 11.0 KiB cut] tail\n> Password:  [no newline yet]"},
		{"a stop another asked for", model.Report{Job: withStop}, view{},
			"job 2 killed by SIGTERM 0:01 make\nstopped in 5s (asked by console): SIGTERM to 3 processes; SIGKILL was needed for 1 after the 5s grace\n(no output)"},
		{"a signal jobdeck did not send", model.Report{Job: foreign}, view{},
			"job 2 killed by SIGKILL 0:01 make\nnote: this SIGKILL was not sent by jobdeck\n(no output)"},
		{"problems and fallbacks", model.Report{Job: lost}, view{},
			"job 2 exited 0 0:01 make\nnote: the supervisor was lost\nnote: no cgroup v2 for the job (read-only); stops rely on the subreaper walk\n(no output)"},
		{"started by someone else", model.Report{Job: other, Page: model.Page{}}, view{},
			"job 2 running 0:02 make\nstarted by console\n[next: job_status {\"id\":2,\"since\":0}]"},
		{"a named job's header", model.Report{Job: named}, view{}, "job 2 (web) running 0:02\n[next: job_status {\"id\":2,\"since\":0}]"},
		{"the full command in background's report", model.Report{Job: named}, view{full: true},
			"job 2 (web) running 0:02 npm run dev -- --port 5173 --host 0.0.0.0 --strictPort\n[next: job_status {\"id\":2,\"since\":0}]"},
		{"a match", model.Report{Job: run, Wait: &model.WaitResult{Reason: model.WaitMatched, Waited: 700 * time.Millisecond, Match: ready}, Page: model.Page{Lines: []model.Line{line(1, model.StreamOut, "ready")}, Next: 1, Last: 1}}, view{},
			"job 2 running 0:02 make\nwait: matched line 1 after 700ms (printed 500ms ago)\n> ready\n[next: job_status {\"id\":2,\"since\":1}]"},
		{"a match shown before", model.Report{Job: run, Wait: &model.WaitResult{Reason: model.WaitMatched, Match: ready}, Page: model.Page{Next: 1, Last: 1}}, view{ww: waitWords{shown: true}},
			"job 2 running 0:02 make\nwait: matched line 1 at once (printed 500ms ago, already in an earlier result): ready\n[next: job_status {\"id\":2,\"since\":1}]"},
		{"grep: seqs, context, gaps", grep, view{grep: "FAIL", context: 1},
			"job 2 exited 0 0:01 make\ngrep \"FAIL\": 3 matching lines in lines 1-10\n4- > ok\n5: > FAIL a\n--\n9: > FAIL b\n[… 1 match not shown (earlier): job_status {\"id\":2,\"grep\":\"FAIL\",\"context\":1,\"since\":0,\"head\":1}]"},
		{"grep without context: no gaps marked; the range the ring held", grep0, view{grep: "FAIL"},
			"job 2 exited 0 0:01 make\ngrep \"FAIL\": 3 matching lines in lines 3-10\n5: > FAIL a\n6: > FAIL b\n9: > FAIL c"},
	}
	for _, c := range cases {
		if got := renderText(c.r, c.v); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestRenderBudget: a result never exceeds its budget; the lines it leaves
// out are the oldest, counted, with the call that reads them, and the
// structured content holds exactly the lines the text shows.
func TestRenderBudget(t *testing.T) {
	t.Parallel()
	var lines []model.Line
	for i := uint64(1); i <= 100; i++ {
		lines = append(lines, model.Line{Seq: i, Text: []byte(strings.Repeat("é<", 10))}) // 30 bytes each, 80 in JSON
	}
	rep := model.Report{Job: model.Snapshot{ID: 1, Command: "x", State: model.StateRunning, Started: t0}, Page: model.Page{Lines: lines, Next: 100, Last: 100}}
	r := render(view{rep: rep, client: "me", now: t0, budget: model.MinResultBytes, typed: true})
	if len(r.text) > model.MinResultBytes {
		t.Fatalf("text is %d bytes, over its %d", len(r.text), model.MinResultBytes)
	}
	if n := jsonSize(r.out); n > model.MinResultBytes {
		t.Fatalf("structured content is %d bytes of JSON, over its %d", n, model.MinResultBytes)
	}
	n := len(r.out.Lines)
	if n < 5 || r.out.Lines[n-1].Seq != 100 || r.out.Skipped != uint64(100-n) || len(r.shown) != n {
		t.Fatalf("%d lines kept (newest %d), skipped %d, shown %d", n, r.out.Lines[n-1].Seq, r.out.Skipped, len(r.shown))
	}
	want := `job_status {"id":1,"since":0,"head":` + strconv.Itoa(100-n) + `}`
	if r.out.Calls[0] != want {
		t.Fatalf("no call for the left-out lines (%s): %v", want, r.out.Calls)
	}
	// Each form has the whole budget: the text, 30 bytes a line where the
	// JSON takes 80, shows more lines, and its own call for the rest.
	shown := strings.Count(r.text, "\n> ")
	if textWant := `job_status {"id":1,"since":0,"head":` + strconv.Itoa(100-shown) + `}`; shown <= n || !strings.Contains(r.text, textWant) {
		t.Fatalf("the text shows %d lines to the JSON's %d (want more), and the call %s:\n%s", shown, n, textWant, r.text)
	}
	for _, l := range r.out.Lines {
		if !strings.Contains(r.text, "> "+l.Text) {
			t.Fatalf("structured line %d is not in the text", l.Seq)
		}
	}
}

// TestNotes: the wait notes, in each of their cases (the stop and
// signal notes are package words's).
func TestNotes(t *testing.T) {
	t.Parallel()
	now := t0.Add(1500 * time.Millisecond)
	open := &model.Line{Text: []byte("Password: "), Partial: true, Time: t0}
	waits := []struct {
		w    model.WaitResult
		ww   waitWords
		want string
	}{
		{model.WaitResult{Reason: model.WaitEnded, Waited: 1234 * time.Millisecond}, waitWords{}, "wait: the job ended after 1.2s"},
		{model.WaitResult{Reason: model.WaitEnded, Waited: 12 * time.Second}, waitWords{job: "job 3 (tests)"}, "wait: job 3 (tests) ended after 12s"},
		{model.WaitResult{Reason: model.WaitTimeout, Waited: 5 * time.Second}, waitWords{}, "wait: timed out after 5s"},
		{model.WaitResult{Reason: model.WaitTimeout, Waited: 5 * time.Second}, waitWords{until: "ready", after: 12, hasAfter: true}, `wait: timed out after 5s; no line after line 12 matched "ready"`},
		{model.WaitResult{Reason: model.WaitTimeout, Waited: 5 * time.Second}, waitWords{until: "ready"}, `wait: timed out after 5s; no line matched "ready"`},
		{model.WaitResult{Reason: model.WaitMatched, Waited: time.Second, Match: open}, waitWords{now: now}, "wait: matched the open line (no newline yet) after 1s (printed 1.5s ago): Password:"},
		{model.WaitResult{Reason: model.WaitIdle}, waitWords{}, "wait: no job is running, so none can end"},
		{model.WaitResult{Reason: model.WaitIdle}, waitWords{until: "x"}, `wait: no job is running and no line of any job matches "x"`},
	}
	for _, c := range waits {
		if got := waitNote(&c.w, c.ww); got != c.want {
			t.Errorf("waitNote(%+v) = %q, want %q", c.w, got, c.want)
		}
	}
	if got := renderText(model.Report{Job: model.Snapshot{Command: "x\x1b]0;t\x07", State: model.StateRunning, Started: t0}}, view{}); strings.ContainsRune(got, 0x1b) {
		t.Errorf("escape in the text: %q", got)
	}
	if got := jsonString(`a&b<c>"`); got != `"a&b<c>\""` {
		t.Errorf("jsonString = %s", got)
	}
}
