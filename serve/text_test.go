package serve

import (
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// TestReportText: the agent's text of a report, made from structure alone,
// line for line.
func TestReportText(t *testing.T) {
	t.Parallel()
	now := t0.Add(2 * time.Second)
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
	cases := []struct {
		name string
		r    model.Report
		want string
	}{
		{"running: lines and the cursor", model.Report{Job: run, Page: model.Page{Lines: []model.Line{line(1, model.StreamOut, "\x1b[31mhi\x1b[0m"), line(2, model.StreamErr, "oops")}, Next: 2, Last: 2}},
			"job 2 running 0:02 make\n> hi\n! oops\n[next: job_status {\"id\":2,\"since\":2}]"},
		{"more lines: the cursor to read on", model.Report{Job: run, Page: model.Page{Lines: []model.Line{line(4, model.StreamOut, "a")}, Next: 4, More: 5, Last: 9}},
			"job 2 running 0:02 make\n> a\n[… 5 more lines: job_status {\"id\":2,\"since\":4}]"},
		{"dropped and skipped", model.Report{Job: done, Page: model.Page{Lines: []model.Line{line(3000, model.StreamOut, "a")}, Dropped: 2990, Skipped: 7, Next: 3000, Last: 3000}},
			"job 2 exited 0 0:01 make\n[… 2990 lines dropped]\n[… 7 earlier lines not shown]\n> a"},
		{"no output", model.Report{Job: done}, "job 2 exited 0 0:01 make\n(no output)"},
		{"a cut line and a prompt", model.Report{Job: done, Page: model.Page{Lines: []model.Line{{Seq: 1, Text: []byte("x"), Dropped: 50_000_000}}, Partial: []model.Line{{Text: []byte("Password: "), Partial: true}}, Last: 1}},
			"job 2 exited 0 0:01 make\n> x [… 47.7 MiB cut]\n> Password: "},
		{"a stop another asked for", model.Report{Job: withStop},
			"job 2 killed by SIGTERM 0:01 make\nstopped in 5s (asked by console): SIGTERM to 3 processes; SIGKILL was needed for 1 after the 5s grace\n(no output)"},
		{"a signal jobdeck did not send", model.Report{Job: foreign},
			"job 2 killed by SIGKILL 0:01 make\nnote: this SIGKILL was not sent by jobdeck (the kernel's OOM killer?)\n(no output)"},
		{"problems and fallbacks", model.Report{Job: lost},
			"job 2 exited 0 0:01 make\nnote: the supervisor was lost\nnote: no cgroup v2 for the job (read-only); stops rely on the subreaper walk\n(no output)"},
		{"started by someone else", model.Report{Job: other, Page: model.Page{}},
			"job 2 running 0:02 make\nstarted by console\n[next: job_status {\"id\":2,\"since\":0}]"},
		{"a wait", model.Report{Job: run, Wait: &model.WaitResult{Reason: model.WaitMatched, Waited: 700 * time.Millisecond, Match: &model.Line{Seq: 1, Text: []byte("\x1b[1mready\x1b[0m")}}, Page: model.Page{Lines: []model.Line{line(1, model.StreamOut, "ready")}, Next: 1, Last: 1}},
			"job 2 running 0:02 make\nwait: a line matched after 700ms: ready\n> ready\n[next: job_status {\"id\":2,\"since\":1}]"},
	}
	for _, c := range cases {
		if got := reportText(c.r, "me", now); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestNotes: the stop, signal and wait notes, in each of their cases.
func TestNotes(t *testing.T) {
	t.Parallel()
	now := t0.Add(1500 * time.Millisecond)
	stops := []struct {
		st   *model.Stop
		want string
	}{
		{nil, ""},
		{&model.Stop{At: t0, Grace: 5 * time.Second, TermSent: 1}, "stopping: SIGTERM to 1 process 1.5s ago; SIGKILL follows after the 5s grace"},
		{&model.Stop{At: t0, TermSent: 0}, "stopping: SIGKILL at once, 1.5s ago"},
		{&model.Stop{At: t0, Grace: 0, KillSent: 2, Done: t0.Add(10 * time.Millisecond)}, "stopped in 10ms: SIGKILL to 2 processes at once"},
		{&model.Stop{At: t0, Grace: time.Second, TermSent: 2, Done: t0.Add(10 * time.Millisecond), By: "me"}, "stopped in 10ms: SIGTERM to 2 processes; no SIGKILL needed"},
		{&model.Stop{At: t0, Grace: time.Second, TermSent: 2, Done: t0.Add(10 * time.Millisecond), By: "jobdeck"}, "stopped in 10ms (asked by jobdeck): SIGTERM to 2 processes; no SIGKILL needed"},
	}
	for _, c := range stops {
		if got := stopNote(c.st, "me", now); got != c.want {
			t.Errorf("stopNote(%+v) = %q, want %q", c.st, got, c.want)
		}
	}
	signals := map[model.Exit]string{
		{Signal: 15}: "note: this SIGTERM was not sent by jobdeck",
		{Code: 137}:  "note: exit status 137 usually means a process died of SIGKILL, not sent by jobdeck (the OOM killer?)",
		{Code: 143}:  "note: exit status 143 usually means a process died of SIGTERM, not sent by jobdeck",
		{Code: 1}:    "",
	}
	for e, want := range signals {
		if got := signalNote(model.Snapshot{Exit: &e}); got != want {
			t.Errorf("signalNote(%+v) = %q, want %q", e, got, want)
		}
	}
	waits := map[model.WaitResult]string{
		{Reason: model.WaitEnded, Waited: 1234 * time.Millisecond}: "wait: the job ended after 1.2s",
		{Reason: model.WaitTimeout, Waited: 5 * time.Second}:       "wait: timed out after 5s",
		{Reason: model.WaitMatched, Waited: time.Second}:           "wait: a line matched after 1s: ",
	}
	for w, want := range waits {
		if got := waitNote(&w); got != want {
			t.Errorf("waitNote(%+v) = %q, want %q", w, got, want)
		}
	}
	for n, want := range map[int64]string{812: "812 bytes", 35021: "34.2 KiB", 50_000_000: "47.7 MiB", 3 << 30: "3.0 GiB"} {
		if got := byteSize(n); got != want {
			t.Errorf("byteSize(%d) = %q, want %q", n, got, want)
		}
	}
	if got := reportText(model.Report{Job: model.Snapshot{Command: "x\x1b]0;t\x07", State: model.StateRunning, Started: t0}}, "", now); strings.ContainsRune(got, 0x1b) {
		t.Errorf("escape in the text: %q", got)
	}
}
