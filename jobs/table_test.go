package jobs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/model"
)

func TestStartReportsOutputAndExit(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: deathWait})
	r := start(t, tb, model.Spec{Command: "echo hello; echo oops >&2; exit 3"})
	if r.Job.Exit == nil || r.Job.Exit.Code != 3 {
		t.Fatalf("exit = %v, want exited 3; report:\n%s", r.Job.Exit, plainText(r))
	}
	for _, want := range []string{"job 0 exited 3 ", "> hello\n", "! oops\n"} {
		if !strings.Contains(plainText(r), want) {
			t.Errorf("report lacks %q:\n%s", want, plainText(r))
		}
	}
	if !r.Job.Done {
		t.Errorf("a job that exited at once should be done in the start report")
	}
}

func TestStartInstantDeath(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: deathWait})
	cases := []struct {
		cmd, stderr string
		code        int
	}{
		{"jdtest-no-such-command --flag", "command not found", 127},
		{"/etc/passwd", "Permission denied", 126},
		{"ls --jdtest-bogus-flag", "unrecognized option", 2},
		{"if then fi", "syntax error", 2},
	}
	for _, c := range cases {
		r := start(t, tb, model.Spec{Command: c.cmd})
		if r.Job.Exit == nil || r.Job.Exit.Code != c.code {
			t.Errorf("%q: exit %v, want %d\n%s", c.cmd, r.Job.Exit, c.code, plainText(r))
		}
		if !strings.Contains(plainText(r), "! ") || !strings.Contains(plainText(r), c.stderr) {
			t.Errorf("%q: stderr %q not in the start report:\n%s", c.cmd, c.stderr, plainText(r))
		}
	}
}

func TestStartRejectsBadSpecs(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		spec model.Spec
		msg  string
	}{
		{"empty", model.Spec{Command: ""}, "command is empty"},
		{"blank", model.Spec{Command: " \t\n "}, "command is empty"},
		{"too long", model.Spec{Command: "echo " + strings.Repeat("x", model.MaxCommandBytes)}, "1 MiB"},
		{"missing cwd", model.Spec{Command: "true", Dir: "/nonexistent/jdtest"}, "does not exist"},
		{"file cwd", model.Spec{Command: "true", Dir: file}, "not a directory"},
		{"numeric name", model.Spec{Command: "true", Name: "42"}, "is a number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := tb.Start(t.Context(), c.spec)
			if !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v, want ErrBadSpec mentioning %q", err, c.msg)
			}
		})
	}
	if n := len(tb.List()); n != 0 {
		t.Fatalf("%d jobs in the table after refused starts, want 0", n)
	}
}

func TestLongCommandRunsFromFile(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	// 300 KiB: longer than one environment string may be, shorter than 1 MiB.
	cmd := "x='" + strings.Repeat("y", 300<<10) + "'; echo ${#x}"
	r := start(t, tb, model.Spec{Command: cmd})
	r, err := tb.Status(t.Context(), r.Job.ID, model.StatusOptions{Wait: 20 * time.Second}) // a loaded machine may take longer than the start's wait
	if err != nil {
		t.Fatal(err)
	}
	if r.Job.Exit == nil || r.Job.Exit.Code != 0 || !strings.Contains(plainText(r), fmt.Sprintf("> %d\n", 300<<10)) {
		t.Fatalf("long command:\n%s", plainText(r))
	}
}

func TestRunningLimitAndDuplicates(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{MaxRunning: 3, StartWait: -1})
	for i := range 3 {
		start(t, tb, model.Spec{Command: fmt.Sprintf("sleep 30 # %d", i)})
	}
	_, err := tb.Start(t.Context(), model.Spec{Command: "sleep 30 # 3"})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "job 0 sleep 30 # 0") || !strings.Contains(err.Error(), "stop one") {
		t.Fatalf("fourth start: err = %v, want ErrLimit naming the running jobs", err)
	}
	if _, err := tb.Kill(t.Context(), 1, model.KillOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = tb.Start(t.Context(), model.Spec{Command: "sleep 30 # 0"})
	if !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), "job 0") {
		t.Fatalf("duplicate start: err = %v, want ErrDuplicate pointing at job 0", err)
	}
	start(t, tb, model.Spec{Command: "sleep 30 # 0", Dir: t.TempDir()}) // same command, other directory
}

func TestSelectors(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: "true", Name: "Web"})
	start(t, tb, model.Spec{Command: "true", Name: "api"})
	start(t, tb, model.Spec{Command: "echo again", Name: "web"})
	if id, err := tb.Resolve("API"); err != nil || id != 1 {
		t.Fatalf("Resolve(API) = %v, %v", id, err)
	}
	if id, err := tb.Resolve(" 2 "); err != nil || id != 2 {
		t.Fatalf("Resolve(2) = %v, %v", id, err)
	}
	// A name two jobs had means the newest of them, running or not.
	if id, err := tb.Resolve("web"); err != nil || id != 2 {
		t.Fatalf("Resolve(web) = %v, %v, want the newest job named so, 2", id, err)
	}
	for _, sel := range []string{"7", "nope", ""} {
		if _, err := tb.Resolve(sel); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Resolve(%q) = %v, want ErrNotFound", sel, err)
		}
	}
}

func TestStatusSinceAndBounds(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: "seq 1 100"})
	waitFor(t, 5*time.Second, "done", func() bool { return snap(t, tb, 0).Done })
	r, err := tb.Status(t.Context(), 0, model.StatusOptions{HasSince: true, Since: 95})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(lineTexts(r.Page), ","); got != "96,97,98,99,100" || r.Page.Next != 100 {
		t.Fatalf("since 95: %s next %d", got, r.Page.Next)
	}
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{Lines: 3})
	if got := strings.Join(lineTexts(r.Page), ","); got != "98,99,100" {
		t.Fatalf("lines 3: %s", got)
	}
	// With since, lines are still the newest; head the oldest.
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{HasSince: true, Since: 10, Lines: 5})
	if got := strings.Join(lineTexts(r.Page), ","); got != "96,97,98,99,100" || r.Page.Skipped != 85 || r.Page.Next != 100 || r.Read.From != 10 {
		t.Fatalf("tail after since: %s skipped %d next %d from %d", got, r.Page.Skipped, r.Page.Next, r.Read.From)
	}
	r, _ = tb.Status(t.Context(), 0, model.StatusOptions{HasSince: true, Since: 10, Head: 5})
	if got := strings.Join(lineTexts(r.Page), ","); got != "11,12,13,14,15" || r.Page.More != 85 || r.Page.Next != 15 || !r.Read.Head {
		t.Fatalf("paged read: %s more %d next %d\n%s", got, r.Page.More, r.Page.Next, plainText(r))
	}
	for _, o := range []model.StatusOptions{
		{HasSince: true, Since: 101}, {Lines: 2001}, {Lines: -1}, {Wait: -time.Second}, {Wait: time.Hour},
		{Until: "x"}, {Head: 1, Lines: 1}, {Head: 2001}, {Context: 2}, {Grep: "(", Context: 1}, {Grep: "x", Context: 21},
		{Grep: strings.Repeat("x", model.MaxPatternBytes+1)},
	} {
		if _, err := tb.Status(t.Context(), 0, o); !errors.Is(err, ErrBadRequest) {
			t.Errorf("Status(%+v) = %v, want ErrBadRequest", o, err)
		}
	}
}

func TestStatusSinceOlderThanRing(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: "seq 1 5000"})
	waitFor(t, 5*time.Second, "done", func() bool { return snap(t, tb, 0).Done })
	r, err := tb.Status(t.Context(), 0, model.StatusOptions{HasSince: true, Since: 10, Head: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Page.Dropped != 2990 || lineTexts(r.Page)[0] != "3001" {
		t.Fatalf("dropped %d:\n%s", r.Page.Dropped, plainText(r))
	}
}

func TestKillNeedsSigkill(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: `sh -c 'trap "exit 0" TERM; (trap "" TERM; exec sleep 4243) & wait'`, Grace: new(time.Second)})
	// A kill before the sleep ignores SIGTERM needs no SIGKILL (sh sets
	// its trap before it starts the sleep).
	waitFor(t, 10*time.Second, "the sleep that ignores SIGTERM", func() bool { return testkit.Ignores("sleep 4243", syscall.SIGTERM) })
	t0 := time.Now()
	r, err := tb.Kill(t.Context(), 0, model.KillOptions{})
	took := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Job.Stop == nil || r.Job.Stop.KillSent == 0 {
		t.Fatalf("want a report that SIGKILL was needed:\n%s", plainText(r))
	}
	if took < time.Second || took > 3*time.Second {
		t.Fatalf("kill took %v, want the 1 s grace + a little", took)
	}
	testkit.AssertNoLeftovers(t, "4243", time.Second)
}

func TestKillFinishedJobReturnsReport(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: "echo done"})
	waitFor(t, 5*time.Second, "done", func() bool { return snap(t, tb, 0).Done })
	r, err := tb.Kill(t.Context(), 0, model.KillOptions{})
	if err != nil || !strings.Contains(plainText(r), "exited 0") || !strings.Contains(plainText(r), "> done") {
		t.Fatalf("kill of a finished job: %v\n%s", err, plainText(r))
	}
}

func TestLeaderExitsTreeLingers(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: `sh -c '(while :; do echo tick; sleep 1; done) & sleep 2; exit 0'`})
	waitFor(t, 4*time.Second, "exited 0 with 1 still running", func() bool {
		s := snap(t, tb, 0)
		return s.Exit != nil && s.Exit.Code == 0 && s.Remaining == 1
	})
	if s := snap(t, tb, 0); !strings.Contains(s.Header(time.Now()), "exited 0, 1 still running") {
		t.Fatalf("header: %s", s.Header(time.Now()))
	}
	ticks := snap(t, tb, 0).Lines
	waitFor(t, 3*time.Second, "more ticks after the exit", func() bool { return snap(t, tb, 0).Lines > ticks })
	t0 := time.Now()
	r, err := tb.Kill(t.Context(), 0, model.KillOptions{})
	if err != nil || time.Since(t0) > 2*time.Second {
		t.Fatalf("kill took %v: %v", time.Since(t0), err)
	}
	after := r.Job.Lines
	time.Sleep(1500 * time.Millisecond) // the ticker would have ticked by now
	if s := snap(t, tb, 0); s.Lines != after || s.Remaining != 0 || !s.Done {
		t.Fatalf("after kill: lines %d→%d remaining %d done %v", after, s.Lines, s.Remaining, s.Done)
	}
}

func TestPromptShowsAndStdinIsEmpty(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	r := start(t, tb, model.Spec{Command: `sh -c 'printf "Password: "; read x; echo got'`})
	if r.Job.Exit == nil || !strings.Contains(plainText(r), "> Password: got") {
		t.Fatalf("prompt job:\n%s", plainText(r))
	}
}

func TestPartialLineVisibleWhileRunning(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: `printf 'prompt> '; sleep 30`})
	waitFor(t, 3*time.Second, "partial line", func() bool {
		p, _ := tb.Read(0, model.ReadRequest{})
		return len(p.Partial) == 1 && string(p.Partial[0].Text) == "prompt> "
	})
}

func TestReportHasNoEscapes(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	r := start(t, tb, model.Spec{Command: `printf '\033[31mred\033[0m\n\033]52;c;cHduZWQ=\007ok\n'`})
	if !strings.Contains(plainText(r), "red") || !strings.Contains(plainText(r), "ok") || hasControls(plainText(r)) {
		t.Fatalf("report: %q", plainText(r))
	}
}

func TestProgressBarIsOneLine(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	start(t, tb, model.Spec{Command: `for i in $(seq 0 100); do printf '\rprogress %3d%%' $i; done; echo`})
	waitFor(t, 5*time.Second, "done", func() bool { return snap(t, tb, 0).Done })
	p, _ := tb.Read(0, model.ReadRequest{})
	if len(p.Lines) != 1 || !strings.HasSuffix(string(p.Lines[0].Text), "100%") {
		t.Fatalf("lines: %q", lineTexts(p))
	}
}

func TestFloodCompletesBounded(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	for _, tty := range []bool{true, false} {
		r := start(t, tb, model.Spec{Command: "yes | head -c 300M; echo last-line", NoTTY: !tty})
		id := r.Job.ID
		waitFor(t, 60*time.Second, "flood to finish", func() bool { return snap(t, tb, id).Done })
		s := snap(t, tb, id)
		p, _ := tb.Read(id, model.ReadRequest{Limit: 1, Tail: true})
		if s.Exit == nil || s.Exit.Code != 0 || string(p.Lines[0].Text) != "last-line" {
			t.Fatalf("tty=%v: exit %v last %q", tty, s.Exit, lineTexts(p))
		}
		if want := uint64(300<<20/2 + 1); s.Lines != want || s.FirstSeq != want-RingLines+1 {
			t.Fatalf("tty=%v: lines %d first %d, want %d lines and the last %d kept", tty, s.Lines, s.FirstSeq, want, RingLines)
		}
	}
}

func TestFinishedJobsAreBounded(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{MaxFinished: 2})
	for i := range 4 {
		start(t, tb, model.Spec{Command: fmt.Sprintf("echo %d", i)})
		waitFor(t, 5*time.Second, "done", func() bool { s, ok := tb.Snapshot(model.JobID(i)); return ok && s.Done })
	}
	waitFor(t, 5*time.Second, "two finished jobs kept", func() bool { return len(tb.List()) == 2 })
	if _, err := tb.Resolve("0"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "dropped") {
		t.Fatalf("Resolve(0) = %v, want a dropped job", err)
	}
	if tb.Dropped() != 2 {
		t.Fatalf("dropped = %d", tb.Dropped())
	}
}

func TestEventsFanOut(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: -1})
	sub := tb.Subscribe()
	defer sub.Close()
	start(t, tb, model.Spec{Command: "echo hi; sleep 0.2"})
	seen := map[model.EventKind]bool{}
	deadline := time.Now().Add(5 * time.Second)
	for !(seen[model.EventStarted] && seen[model.EventOutput] && seen[model.EventState] && snap(t, tb, 0).Done) {
		if time.Now().After(deadline) {
			t.Fatalf("events seen: %v", seen)
		}
		select {
		case <-sub.C():
			for _, ev := range sub.Events() {
				seen[ev.Kind] = true
			}
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func TestCloseStopsEverything(t *testing.T) {
	t.Parallel()
	tb, err := New(Options{Grace: new(500 * time.Millisecond), StartWait: -1})
	if err != nil {
		t.Fatal(err)
	}
	mark := uniqueMarker(t)
	for i := range 3 {
		if _, err := tb.Start(t.Context(), model.Spec{Command: fmt.Sprintf("export PROC_CASE_MARKER=%s; setsid sleep 77 & (trap '' TERM; sleep 78) & sleep 79 # %d", mark, i)}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 5*time.Second, "sleeps to start", func() bool { return len(testkit.Leftovers(mark)) >= 9 })
	if err := tb.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	testkit.AssertNoLeftovers(t, "JOBDECK_SESSION="+tb.Session(), 2*time.Second)
	if _, err := tb.Start(t.Context(), model.Spec{Command: "true"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Start after Close: %v", err)
	}
}

func TestNamesMeanTheNewestJob(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: -1})
	start(t, tb, model.Spec{Command: "sleep 30 # v1", Name: "web"})
	if _, err := tb.Start(t.Context(), model.Spec{Command: "sleep 30 # other", Name: "WEB"}); !errors.Is(err, ErrDuplicate) || !strings.Contains(err.Error(), "belongs to running job 0") {
		t.Fatalf("a live job's name must not be taken twice: %v", err)
	}
	if _, err := tb.Kill(t.Context(), resolve(t, tb, "web"), model.KillOptions{}); err != nil {
		t.Fatal(err)
	}
	start(t, tb, model.Spec{Command: "sleep 30 # v2", Name: "web"}) // the usual restart
	if id, err := tb.Resolve("web"); err != nil || id != 1 {
		t.Fatalf("after a restart, web is the live job 1: %v %v", id, err)
	}
	if _, err := tb.Kill(t.Context(), resolve(t, tb, "web"), model.KillOptions{}); err != nil {
		t.Fatal(err)
	}
	if id, err := tb.Resolve("web"); err != nil || id != 1 {
		t.Fatalf("with no live job of that name, it means the newest finished one (1): %v %v", id, err)
	}
}

// TestDuplicateThroughSymlink: the same command in the same directory,
// reached through a symbolic link, is the same job to the guard.
func TestDuplicateThroughSymlink(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Start(t.Context(), model.Spec{Command: "sleep 30", Dir: dir, NoWait: true}); err != nil {
		t.Fatal(err)
	}
	_, err := tb.Start(t.Context(), model.Spec{Command: "sleep 30", Dir: link, NoWait: true})
	if !errors.Is(err, ErrDuplicate) {
		t.Fatalf("through a symlink: err %v, want ErrDuplicate", err)
	}
}
