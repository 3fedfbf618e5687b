package present

import (
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// TestReport: the /job-status overlay's lines, made from structure alone.
func TestReport(t *testing.T) {
	t.Parallel()
	now := t0.Add(2 * time.Second)
	run := model.Snapshot{ID: 2, Name: "web", Command: "npm run dev", State: model.StateRunning, Started: t0, Owner: "console"}
	done := model.Snapshot{ID: 2, Command: "make", State: model.StateExited, Started: t0, Ended: t0.Add(time.Second), Exit: &model.Exit{Code: 1}, Done: true, Owner: "claude"}
	stopped := done
	stopped.Exit = &model.Exit{Signal: 9}
	stopped.Stop = &model.Stop{At: t0, Grace: time.Second, TermSent: 2, KillSent: 1, Done: t0.Add(1500 * time.Millisecond), By: "claude"}
	noted := run
	noted.Notes = []string{"no cgroup v2 for the job (EROFS); stops rely on the subreaper walk"}
	noted.Err = "the supervisor reported a problem"
	l := func(seq uint64, s model.Stream, text string) model.Line {
		return model.Line{Seq: seq, Stream: s, Text: []byte(text)}
	}
	cases := []struct {
		name string
		r    model.Report
		want []string
	}{
		{"own running job", model.Report{Job: run, Page: model.Page{Lines: []model.Line{l(1, model.StreamOut, "\x1b[32mready\x1b[0m"), l(2, model.StreamErr, "warn")}, Partial: []model.Line{{Text: []byte(">>> "), Partial: true}}, Last: 2}},
			[]string{"job 2 (web) running 0:02 npm run dev", "started 12:00:00 by console · no cgroup", "command: npm run dev", "> ready", "! warn", "> >>> "}},
		{"another's finished job", model.Report{Job: done, Page: model.Page{Skipped: 150, Dropped: 3, Lines: []model.Line{{Seq: 4, Text: []byte("x"), Dropped: 2048}}, Last: 154}},
			[]string{"job 2 exited 1 0:01 make", "started 12:00:00 by claude · no cgroup", "command: make", "[… 3 lines dropped]", "[… 150 earlier lines not shown]", "> x [… 2.0 KiB cut]"}},
		{"a stop another asked for", model.Report{Job: stopped},
			[]string{"job 2 killed by SIGKILL 0:01 make", "started 12:00:00 by claude · no cgroup", "command: make", "stopped in 1.5s (asked by claude): SIGTERM to 2 processes; SIGKILL was needed for 1 after the 1s grace", "(no output)"}},
		{"notes, each once", model.Report{Job: noted},
			[]string{"job 2 (web) running 0:02 npm run dev", "started 12:00:00 by console · no cgroup", "command: npm run dev", "note: the supervisor reported a problem", "note: no cgroup v2 for the job (EROFS); stops rely on the subreaper walk"}},
		{"a wait and more lines", model.Report{Job: run, Wait: &model.WaitResult{Reason: model.WaitTimeout, Waited: 5 * time.Second}, Page: model.Page{More: 4}},
			[]string{"job 2 (web) running 0:02 npm run dev", "started 12:00:00 by console · no cgroup", "command: npm run dev", "wait: timed out after 5s", "[… 4 more lines]"}},
	}
	for _, c := range cases {
		got := Report(c.r, "console", now)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestNotes: the wait notes and the small words (the stop and signal
// notes are package words's).
func TestNotes(t *testing.T) {
	t.Parallel()
	m := model.Line{Text: []byte("\x1b[1mlistening on :8080\x1b[0m")}
	for w, want := range map[model.WaitResult]string{
		{Reason: model.WaitMatched, Waited: 740 * time.Millisecond, Match: &m}: "wait: a line matched after 700ms: listening on :8080",
		{Reason: model.WaitEnded, Waited: 1250 * time.Millisecond}:             "wait: the job ended after 1.3s",
		{Reason: model.WaitTimeout, Waited: 30 * time.Second}:                  "wait: timed out after 30s",
	} {
		if got := WaitNote(&w); got != want {
			t.Errorf("WaitNote(%+v) = %q, want %q", w, got, want)
		}
	}
	if Dropped(48209) != "[… 48209 lines dropped]" {
		t.Error("small words")
	}
}
