package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// Tests of what stays current: keys typed during a start, late reports,
// the overlay and the status line following their job.

// TestPaletteTypeAhead: keys typed while a /background is still starting
// are kept and replayed once it started (they used to be dropped, and the
// rest landed on the main view as commands).
func TestPaletteTypeAhead(t *testing.T) {
	t.Parallel()
	c := fixtureCore(1)
	h := newHarness(t, c, 120, 40, Options{})
	h.press("/")
	h.typeText("background sleep 1")
	_, start := h.m.Update(keyMsg("enter")) // the start runs in the background: not yet
	if h.m.palette == nil || h.m.palette.busy == "" {
		t.Fatal("the palette should be busy while the start runs")
	}
	h.press("/")
	h.typeText("background sleep 2") // typed ahead, during the start
	if len(c.started) != 0 {
		t.Fatalf("nothing should have started yet: %q", c.started)
	}
	h.run(start) // the first start finishes: the typed-ahead keys replay
	if h.m.palette == nil || h.m.palette.value() != "/background sleep 2" {
		t.Fatalf("typed-ahead keys lost; palette %v", h.m.palette)
	}
	h.press("enter")
	if len(c.started) != 2 || c.started[0] != "sleep 1" || c.started[1] != "sleep 2" {
		t.Fatalf("Start calls %q, want [sleep 1 sleep 2]", c.started)
	}
}

// TestLateLaunchReportKeepsSelection: the report of a job started at launch
// that arrives after the user started (and so selected) another job from the
// palette does not take the selection back.
func TestLateLaunchReportKeepsSelection(t *testing.T) {
	t.Parallel()
	c := fixtureCore(1) // job 0 exists, as if started at launch
	h := newHarness(t, c, 120, 40, Options{})
	h.command("background sleep 5")
	if h.m.current != 1 {
		t.Fatalf("the palette's job 1 should be selected, current %d", h.m.current)
	}
	s0, _ := c.snap(0)
	h.send(startedMsg{reports: []model.Report{{Job: s0}}, errs: []error{nil}})
	if h.m.current != 1 {
		t.Fatalf("a late launch report took the selection back to %d", h.m.current)
	}
}

// TestPaletteRefusesWhatItWouldMangle: a pasted text of several lines (the
// palette would join them into one) and a line over the palette's limit
// (the input would cut it) are refused inline, never run.
func TestPaletteRefusesWhatItWouldMangle(t *testing.T) {
	t.Parallel()
	c := fixtureCore(0)
	h := newHarness(t, c, 120, 40, Options{})
	h.press("/")
	h.typeText("background ")
	h.send(tea.PasteMsg{Content: "echo one\necho two\n"})
	if !strings.Contains(h.m.palette.err, "has 2 lines") || h.m.palette.value() != "/background " {
		t.Fatalf("multi-line paste: err %q, value %q", h.m.palette.err, h.m.palette.value())
	}
	h.send(tea.PasteMsg{Content: strings.Repeat("x", PaletteMaxChars)})
	if !strings.Contains(h.m.palette.err, "limit") {
		t.Fatalf("over-long paste: err %q", h.m.palette.err)
	}
	h.send(tea.PasteMsg{Content: "echo fine"})
	h.press("enter")
	if len(c.started) != 1 || c.started[0] != "echo fine" {
		t.Fatalf("a one-line paste runs as pasted: %q", c.started)
	}
}

// TestStatusOverlayFollowsTheJob: the /job-status overlay is not a frozen
// snapshot: new lines and the job's end show while it is open.
func TestStatusOverlayFollowsTheJob(t *testing.T) {
	t.Parallel()
	c := newFakeCore(fixedNow)
	id := c.add(model.Snapshot{Command: "count", State: model.StateRunning, Started: t0}, 100)
	c.emit(id, model.StreamOut, "first line")
	h := newHarness(t, c, 120, 40, Options{})
	h.command("job-status 0")
	if h.m.overlay == nil || !strings.Contains(strings.Join(h.m.overlay.lines, "\n"), "first line") {
		t.Fatalf("overlay: %+v", h.m.overlay)
	}
	c.emit(id, model.StreamOut, "second line")
	h.pump()
	h.fire(frameMsg{})
	if !strings.Contains(strings.Join(h.m.overlay.lines, "\n"), "second line") {
		t.Fatalf("the overlay did not follow the job:\n%s", strings.Join(h.m.overlay.lines, "\n"))
	}
}

// TestStatusLineFollowsTheStartedJob: the header shown after a start is the
// job's current one: a command that died at once does not read "running".
func TestStatusLineFollowsTheStartedJob(t *testing.T) {
	t.Parallel()
	c := fixtureCore(0)
	h := newHarness(t, c, 120, 40, Options{})
	h.command("background no-such-command")
	c.update(0, func(s *model.Snapshot) {
		s.State, s.Exit, s.Ended = model.StateExited, &model.Exit{Code: 127}, s.Started
	})
	h.pump()
	if f := h.footer(2); !strings.Contains(f, "job 0 exited 127") || strings.Contains(f, "job 0 running") {
		t.Fatalf("status line after the job died:\n%s", f)
	}
}

// TestPausedPaneStaysPut: a paused pane of a flooding job stays on the
// same lines while the ring holds them, and once the ring evicted them it
// keeps showing them and says so, instead of drifting with the ring's
// oldest line; a pane paused on lines already evicted (its cursor came
// from a list older than the flood) anchors on the oldest line it got
// and stays there too (ARCHITECTURE.md §4).
func TestPausedPaneStaysPut(t *testing.T) {
	t.Parallel()
	c := newFakeCore(fixedNow)
	id := c.add(model.Snapshot{Command: "flood", State: model.StateRunning, Started: t0, TTY: true}, 2000)
	gen := func(seq uint64) []byte { return []byte("flood line " + itoa(seq)) }
	c.emitN(id, model.StreamOut, 5000, gen)
	h := newHarness(t, c, 100, 30, Options{})
	flood := func(n int) {
		c.emitN(id, model.StreamOut, n, gen)
		h.pump()
		h.fire(frameMsg{})
	}
	top := func() string {
		for _, l := range strings.Split(h.screen(), "\n") {
			if i := strings.Index(l, "flood line "); i >= 0 {
				return strings.TrimRight(l[i:], " ┃")
			}
		}
		return ""
	}
	h.press("pgup", "pgup")
	was := top()
	flood(500) // still held
	if got := top(); got != was || strings.Contains(h.screen(), "evicted") {
		t.Fatalf("a paused pane moved while its lines are held: top %q, was %q\n%s", got, was, h.screen())
	}
	flood(3000) // evicted
	if got := top(); got != was || !strings.Contains(h.screen(), "paused · evicted from the ring") {
		t.Fatalf("a paused pane whose lines were evicted: top %q, want %q and the note\n%s", got, was, h.screen())
	}
	flood(300)
	if got := top(); got != was {
		t.Fatalf("a paused pane drifted with the ring: top %q, want %q", got, was)
	}

	// Paused from a stale list: the lines its cursor names are gone.
	h.press("end")
	c.emitN(id, model.StreamOut, 5000, gen) // no fetch: the list is stale
	h.press("pgup")
	anchor := top()
	if !strings.Contains(h.screen(), "evicted from the ring") || anchor == "" {
		t.Fatalf("a pane paused on evicted lines should say so:\n%s", h.screen())
	}
	flood(300) // held
	if got := top(); got != anchor {
		t.Fatalf("a pane anchored on the oldest line drifted: top %q, want %q\n%s", got, anchor, h.screen())
	}
}

// TestStatusOverlayDetails: the /job-status overlay's elapsed time ticks
// while its job runs and nothing new is fetched (it was worded once, and
// stood still), a stop says who asked for it even when it was this
// console, and a restarted run names the run that replaced it.
func TestStatusOverlayDetails(t *testing.T) {
	t.Parallel()
	now := fixedNow()
	c := newFakeCore(fixedNow)
	c.add(model.Snapshot{Command: "sleep 100", Name: "web", State: model.StateRunning, Started: t0}, 0)
	old := c.add(model.Snapshot{Command: "make watch", State: model.StateExited, Exit: &model.Exit{Signal: 15}, Done: true,
		Started: t0, Ended: t0.Add(time.Minute), Stop: &model.Stop{At: t0.Add(59 * time.Second), Done: t0.Add(time.Minute), By: DefaultOwner, TermSent: 1}}, 0)
	c.add(model.Snapshot{Command: "make watch", State: model.StateRunning, Started: t0.Add(time.Minute), RestartOf: &old}, 0)
	h := newHarness(t, c, 120, 40, Options{Now: func() time.Time { return now }})
	status := func(sel string) string {
		h.press("esc", "/")
		h.typeText("job-status " + sel)
		h.press("enter")
		if h.m.overlay == nil {
			t.Fatalf("no overlay for %s", sel)
		}
		return strings.Join(h.m.overlay.lines, "\n")
	}
	if s := status("web"); !strings.Contains(s, "running 1:15") {
		t.Fatalf("the overlay's header:\n%s", s)
	}
	now = now.Add(10 * time.Second)
	if h.fire(clockMsg{}) == 0 {
		t.Fatal("no clock tick while a job runs")
	}
	if s := strings.Join(h.m.overlay.lines, "\n"); !strings.Contains(s, "running 1:25") {
		t.Fatalf("the overlay's elapsed time should tick:\n%s", s)
	}
	s := status("1")
	for _, want := range []string{"(asked by console)", "restarted as job 2"} {
		if !strings.Contains(s, want) {
			t.Errorf("the old run's report should say %q:\n%s", want, s)
		}
	}
	if s := status("2"); !strings.Contains(s, "restart of job 1") {
		t.Errorf("the new run's report should name the old one:\n%s", s)
	}
}
