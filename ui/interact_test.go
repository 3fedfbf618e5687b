package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// footer returns the last n rows of the screen.
func (h *harness) footer(n int) string {
	lines := strings.Split(strings.TrimRight(h.screen(), "\n"), "\n")
	return strings.Join(lines[len(lines)-n:], "\n")
}

// TestPalette covers opening with / and :, running /background with and
// without the slash, inline errors that keep the text, and Esc.
func TestPalette(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3)
	h := newHarness(t, c, 120, 40, Options{})

	h.press("/")
	if h.m.palette == nil || h.m.palette.value() != "/" {
		t.Fatalf("/ should open the palette with / typed")
	}
	h.typeText("background sleep 30")
	h.press("enter")
	if h.m.palette != nil {
		t.Fatalf("palette still open after a good /background: %q", h.footer(2))
	}
	if len(c.started) != 1 || c.started[0] != "sleep 30" {
		t.Fatalf("Start called with %q, want [sleep 30]", c.started)
	}
	if h.m.current != 3 {
		t.Errorf("the new job 3 should be selected, current is %d", h.m.current)
	}
	if f := h.footer(2); !strings.Contains(f, "job 3 running 0:00 sleep 30") {
		t.Errorf("status line should show the new job's header:\n%s", f)
	}

	h.press(":")
	if h.m.palette.value() != ":" {
		t.Fatalf(": should open the palette with : typed, got %q", h.m.palette.value())
	}
	h.press("backspace")
	if h.m.palette == nil {
		t.Fatal("erasing the whole line should keep the palette open (only Esc closes it)")
	}

	// Without the leading slash (typed after ":" here) it works too.
	h.press("/")
	h.press("backspace")
	h.press(":")
	h.typeText("background make watch")
	h.press("enter")
	if len(c.started) != 2 || c.started[1] != "make watch" {
		t.Fatalf(":background: Start calls %q", c.started)
	}

	cases := []struct{ line, want string }{
		{"/frobnicate", `unknown command "frobnicate"`},
		{"/background", "background needs a shell command"},
		{"/job-kill", "job-kill needs a job ID or name"},
		{"/job-kill 99", "job-kill: no such job: 99"},
		{"/job-status nosuch", "job-status: no such job: nosuch"},
	}
	for _, cs := range cases {
		h.command(strings.TrimPrefix(cs.line, "/"))
		if h.m.palette == nil {
			t.Fatalf("%s: palette closed on an error", cs.line)
		}
		if got := h.m.palette.value(); got != cs.line {
			t.Errorf("%s: text not kept, got %q", cs.line, got)
		}
		if f := h.footer(2); !strings.Contains(f, cs.want) {
			t.Errorf("%s: inline error should say %q:\n%s", cs.line, cs.want, f)
		}
		h.press("esc")
		if h.m.palette != nil {
			t.Fatalf("Esc should close the palette")
		}
	}

	// A start the core refuses shows inline and keeps the text.
	c.startErr = fmt.Errorf("%w: 8 jobs are running (0, 2, …); kill one first", model.ErrLimit)
	h.command("background npm test")
	if h.m.palette == nil || h.m.palette.value() != "/background npm test" || !strings.Contains(h.footer(2), "too many running jobs") {
		t.Fatalf("a refused start should show inline:\n%s", h.footer(2))
	}
	h.press("esc")
}

// TestPaletteCompletionAndHistory covers Tab on command names and job
// selectors, and ↑/↓ through earlier lines.
func TestPaletteCompletionAndHistory(t *testing.T) {
	t.Parallel()
	c := fixtureCore(8)
	h := newHarness(t, c, 120, 40, Options{})
	steps := []struct {
		typed string
		tabs  int
		want  string
	}{
		{"/back", 1, "/background "},
		{"/job-k", 1, "/job-kill "},
		{"/job", 1, "/job-"},        // common prefix of job-kill, job-status, job-restart
		{"/job", 2, "/job-kill"},    // then cycle
		{"/job", 3, "/job-status"},  // …and on
		{"/job", 4, "/job-restart"}, // …and on
		{"/job", 5, "/job-kill"},    // …around
		{"/job-", 1, "/job-"},       // the common prefix typed: Tab lists them, picks none
		{"/job-", 2, "/job-kill"},   // then cycles
		{"/job-", 3, "/job-status"},
		{":he", 1, ":help "}, // keeps the leading ':'
		{"/job-status w", 1, "/job-status watch"},
		{"/job-status 7", 1, "/job-status 7"},
		{"/job-kill P", 1, "/job-kill py"}, // names are case-insensitive
		{"/background x", 1, "/background x"},
	}
	for _, s := range steps {
		h.press(string(s.typed[0]))
		h.typeText(s.typed[1:])
		for range s.tabs {
			h.press("tab")
		}
		if got := h.m.palette.value(); got != s.want {
			t.Errorf("%q + %d×Tab = %q, want %q", s.typed, s.tabs, got, s.want)
		}
		h.press("esc")
	}
	h.press("/")
	h.typeText("job-")
	h.press("tab")
	if f := h.footer(2); !strings.Contains(f, "job-kill  job-status") {
		t.Errorf("candidates should show under the input:\n%s", f)
	}
	h.press("esc")

	for _, l := range []string{"job-status 1", "job-status 2"} {
		h.command(l)
		h.press("esc") // close the overlay
	}
	h.press("/")
	h.typeText("draft")
	h.press("up")
	if got := h.m.palette.value(); got != "/job-status 2" {
		t.Fatalf("↑ once: %q", got)
	}
	h.press("up", "up")
	if got := h.m.palette.value(); got != "/job-status 1" {
		t.Fatalf("↑ past the oldest: %q", got)
	}
	h.press("down", "down")
	if got := h.m.palette.value(); got != "/draft" {
		t.Fatalf("↓ back to the draft: %q", got)
	}
}

// TestJobStatusOverlay covers /job-status: the full report in an overlay,
// scrolled and closed with Esc.
func TestJobStatusOverlay(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3)
	h := newHarness(t, c, 80, 24, Options{})
	h.command("job-status flood")
	if len(c.statused) != 1 || c.statused[0] != "2" {
		t.Fatalf("Status called with %q, want [2]", c.statused)
	}
	s := h.screen()
	if h.m.overlay == nil || !strings.Contains(s, "job-status 2 (flood)") || !strings.Contains(s, "job 2 (flood) running 0:55") {
		t.Fatalf("overlay should show the report:\n%s", s)
	}
	h.press("esc")
	if h.m.overlay != nil {
		t.Fatal("Esc should close the overlay")
	}
	h.command("help")
	if s := h.screen(); !strings.Contains(s, "/job-kill <id|name>") {
		t.Fatalf("/help should list the commands:\n%s", s)
	}
	h.press("pgdown", "end", "home", "q")
	if h.m.overlay != nil || h.quit {
		t.Fatal("q in an overlay closes it (and does not quit)")
	}
}

// TestKillConfirm covers x (asks; n cancels, y kills, "stopping…" while
// the kill runs) and /job-kill (does not ask).
func TestKillConfirm(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3)
	c.killGate = make(chan struct{})
	h := newHarness(t, c, 120, 40, Options{})
	h.press("x")
	if f := h.footer(2); !strings.Contains(f, "kill job 0 (npm run dev) and everything it started? y/n") {
		t.Fatalf("x should ask:\n%s", f)
	}
	h.press("n")
	if h.m.confirm != nil || len(c.killed) != 0 {
		t.Fatalf("n should cancel: killed %q", c.killed)
	}
	h.press("x")
	// The kill blocks until the gate opens: run the command in the
	// background like Bubble Tea does, and check the screen meanwhile.
	_, cmd := h.m.Update(keyMsg("y"))
	done := make(chan any, 1)
	go func() { done <- cmd() }()
	if f := h.footer(2); !strings.Contains(f, "stopping job 0…") {
		t.Fatalf("status should say stopping:\n%s", f)
	}
	h.press("j") // the screen still answers
	if h.m.current != 1 {
		t.Fatal("keys stopped working during a kill")
	}
	close(c.killGate)
	h.send((<-done).(killedMsg))
	if f := h.footer(2); strings.Contains(f, "stopping") || !strings.Contains(f, "job 0 killed by SIGTERM") {
		t.Fatalf("after the kill:\n%s", f)
	}
	if len(c.killed) != 1 || c.killed[0] != "0" {
		t.Fatalf("Kill calls %q, want [0]", c.killed)
	}

	h.command("job-kill FLOOD")
	if h.m.confirm != nil || len(c.killed) != 2 || c.killed[1] != "2" {
		t.Fatalf("/job-kill should not ask: confirm %v, kills %q", h.m.confirm, c.killed)
	}

	// x on a finished job says so and asks nothing.
	h.press("k")
	h.press("x")
	if h.m.confirm != nil || !strings.Contains(h.footer(2), "nothing to stop") {
		t.Fatalf("x on a finished job:\n%s", h.footer(2))
	}
}

// TestQuit covers q with no live jobs (quits at once), with live jobs
// (asks; n stays; y stops them all, then quits) and ctrl+c.
func TestQuit(t *testing.T) {
	t.Parallel()
	idle := newHarness(t, newFakeCore(fixedNow), 80, 24, Options{})
	idle.press("q")
	if !idle.quit {
		t.Fatal("q with no jobs should quit")
	}

	c := fixtureCore(8) // 5 live: 0, 2, 3, 5 (leftover process), 7
	h := newHarness(t, c, 120, 40, Options{})
	h.press("ctrl+c")
	if f := h.footer(2); h.quit || !strings.Contains(f, "stop 5 running jobs and quit? y/n") {
		t.Fatalf("ctrl+c with live jobs should ask:\n%s", f)
	}
	h.press("n")
	if h.quit || h.m.confirm != nil {
		t.Fatal("n should stay")
	}
	h.press("q", "y")
	if !h.quit {
		t.Fatal("y should quit once every job is stopped")
	}
	want := []string{"0", "2", "3", "5", "7"}
	if strings.Join(c.killed, ",") != strings.Join(want, ",") {
		t.Errorf("killed %q, want %q", c.killed, want)
	}
	if n := h.m.liveCount(); n != 0 {
		t.Errorf("%d jobs still live after quitting", n)
	}
}

// TestStartOnLaunch covers jobdeck -- 'cmd one' 'cmd two'.
func TestStartOnLaunch(t *testing.T) {
	t.Parallel()
	c := newFakeCore(fixedNow)
	h := newHarness(t, c, 120, 40, Options{Launch: []model.Spec{{Command: "cmd one"}, {Command: "cmd two"}}})
	if strings.Join(c.started, "|") != "cmd one|cmd two" {
		t.Fatalf("started %q", c.started)
	}
	h.pump()
	s := h.screen()
	if !strings.Contains(s, "job 0 running 0:00 cmd one") || !strings.Contains(s, "job 1 running 0:00 cmd two") || h.m.current != 0 {
		t.Fatalf("both jobs should have panes, the first selected:\n%s", s)
	}

	c2 := newFakeCore(fixedNow)
	c2.startErr = errors.New("bash not found")
	h2 := newHarness(t, c2, 80, 24, Options{Launch: []model.Spec{{Command: "x"}}})
	if f := h2.footer(2); !strings.Contains(f, "bash not found") {
		t.Fatalf("a failed launch start should show in the status line:\n%s", f)
	}
}

// TestRedrawOnlyOnChange checks the frame machinery: output events mark
// the screen dirty and schedule one frame, however many come; the screen
// renders on the frame, not per event; nothing ticks when no job is live.
func TestRedrawOnlyOnChange(t *testing.T) {
	t.Parallel()
	c := newFakeCore(fixedNow)
	id := c.add(model.Snapshot{Command: "yes", State: model.StateRunning, Started: t0}, 0)
	h := newHarness(t, c, 120, 40, Options{})
	h.pump()
	h.fire(frameMsg{})
	if h.pending(clockMsg{}) != 1 {
		t.Fatalf("a live job should schedule the 1 s clock once, pending %d", h.pending(clockMsg{}))
	}
	before := h.m.View().Content
	gen := h.m.gen
	for i := range 50 {
		c.emit(id, model.StreamOut, fmt.Sprintf("y %d", i))
		h.pump()
	}
	if h.m.gen != gen {
		t.Fatal("output events redrew before the frame")
	}
	if h.pending(frameMsg{}) != 1 {
		t.Fatalf("50 output events scheduled %d frames, want 1", h.pending(frameMsg{}))
	}
	if h.armed {
		t.Fatal("the event wait should re-arm only when the frame comes")
	}
	if h.m.View().Content != before {
		t.Fatal("View changed without a frame")
	}
	h.fire(frameMsg{})
	if !h.armed || h.m.gen == gen || !strings.Contains(h.screen(), "y 49") {
		t.Fatalf("the frame should redraw and re-arm the wait:\n%s", h.screen())
	}
	// Nothing happens: no frame is pending, the view is the same string.
	a := h.m.View().Content
	if h.pending(frameMsg{}) != 0 || h.m.View().Content != a {
		t.Fatal("an idle console redrew")
	}
	// The clock redraws once a second while the job is live …
	if h.fire(clockMsg{}) != 1 || h.pending(clockMsg{}) != 1 {
		t.Fatal("the clock should re-arm while a job is live")
	}
	// … and stops once nothing is live.
	c.update(id, func(s *model.Snapshot) {
		s.State, s.Exit, s.Done, s.Ended = model.StateExited, &model.Exit{}, true, fixedNow()
	})
	h.pump()
	h.fire(clockMsg{})
	if h.pending(clockMsg{}) != 0 {
		t.Fatal("the clock still ticks with no live job")
	}
	if !strings.Contains(h.screen(), "job 0 exited 0") {
		t.Fatalf("a state event should redraw at once:\n%s", h.screen())
	}
}

// TestHelpWhole: /help shows its long lines whole (wrapped), at 160
// columns as at 80; the mouse line used to be cut.
func TestHelpWhole(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 160} {
		h := newHarness(t, fixtureCore(3), w, 40, Options{})
		h.press("/")
		h.typeText("help")
		h.press("enter", "end") // its last line
		s := h.screen()
		if !strings.Contains(s, "as usual.") || strings.Contains(s, "…┃") {
			t.Errorf("%d columns: /help cuts its lines:\n%s", w, s)
		}
	}
}

// TestConfirmOvertaken: a kill asked with x, answered y after an agent
// stopped the job meanwhile, says so (who, and how it ended) and kills
// nothing; a named job's question gives its name.
func TestConfirmOvertaken(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3)
	c.update(0, func(s *model.Snapshot) { s.Name = "web" })
	h := newHarness(t, c, 120, 40, Options{})
	h.pump()
	h.press("x")
	if f := h.footer(2); !strings.Contains(f, "kill job 0 (web: npm run dev) and everything it started? y/n") {
		t.Fatalf("x should ask with the job's name:\n%s", f)
	}
	c.update(0, func(s *model.Snapshot) {
		s.State, s.Exit, s.Ended, s.Done = model.StateExited, &model.Exit{Signal: 15}, fixedNow(), true
		s.Stop = &model.Stop{At: fixedNow(), By: "agentx", Done: fixedNow()}
	})
	h.pump()
	h.press("y")
	if f := h.footer(2); !strings.Contains(f, "was stopped meanwhile by agentx") || len(c.killed) != 0 {
		t.Fatalf("y after an agent's stop: killed %q\n%s", c.killed, f)
	}
}
