package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// TestViewAndUpdateCallNoCore: drawing, and handling keys and events,
// never call the core themselves; only the commands they return do.
func TestViewAndUpdateCallNoCore(t *testing.T) {
	t.Parallel()
	c := fixtureCore(8)
	h := newHarness(t, c, 200, 60, Options{})
	c.mu.Lock()
	lists, reads := c.lists, c.reads
	c.mu.Unlock()
	for _, k := range []string{"j", "tab", "pgup", "z", "z", "end", "?", "?", "/", "esc", "x", "n"} {
		h.m.Update(keyMsg(k)) // the returned commands are not run
		h.m.View()
	}
	h.m.Update(eventsMsg{events: []model.Event{{Kind: model.EventState, Job: 0}}})
	h.m.Update(frameMsg{})
	h.m.Update(clockMsg{})
	h.m.View()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lists != lists || c.reads != reads {
		t.Fatalf("Update and View called the core: lists %d→%d, reads %d→%d", lists, c.lists, reads, c.reads)
	}
}

// heldFetch is a fetch command the test runs when it chooses.
type heldFetch struct{ run func() tea.Msg }

// TestOneFetchInFlight: while a fetch is in flight, frames, events and
// keys ask for no other; one more follows when it returns, and only if
// something asked meanwhile.
func TestOneFetchInFlight(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3)
	m := New(t.Context(), c, Options{KeyMap: testKeys(), Now: fixedNow})
	var held []heldFetch
	m.fx.fetch = func(ctx context.Context, core Core, v screenView, overlay *model.JobID) tea.Cmd {
		return func() tea.Msg {
			held = append(held, heldFetch{func() tea.Msg { return fetch(ctx, core, v, overlay) }})
			return nil
		}
	}
	m.fx.tick = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	m.fx.wait = func(context.Context, Subscription) tea.Cmd { return nil }
	run := func(cmd tea.Cmd) {
		// Run the commands of a batch, one level deep: fetches are held.
		if cmd == nil {
			return
		}
		if b, ok := cmd().(tea.BatchMsg); ok {
			for _, c := range b {
				if c != nil {
					c()
				}
			}
		}
	}
	run(m.Init())
	_, cmd := m.Update(teaSize(120, 40))
	run(cmd)
	for range 5 {
		_, cmd = m.Update(frameMsg{})
		run(cmd)
		_, cmd = m.Update(eventsMsg{events: []model.Event{{Kind: model.EventState, Job: 1}}})
		run(cmd)
		_, cmd = m.Update(keyMsg("j"))
		run(cmd)
	}
	if len(held) != 1 {
		t.Fatalf("%d fetches issued while one was in flight, want 1", len(held))
	}
	_, cmd = m.Update(held[0].run())
	run(cmd)
	if len(held) != 2 {
		t.Fatalf("after the fetch returned: %d fetches, want the one that was asked for meanwhile", len(held))
	}
	_, cmd = m.Update(held[1].run())
	run(cmd)
	if len(held) != 2 {
		t.Fatalf("nothing asked meanwhile, yet %d fetches", len(held))
	}
	if !strings.Contains(plainScreen(m.View().Content), "job 2 (flood) running") {
		t.Fatalf("the fetched state is not drawn:\n%s", plainScreen(m.View().Content))
	}
}

// TestLostLink: a core that cannot be reached leaves the screen as it
// was, says so in the status line, and recovers on the next fetch.
func TestLostLink(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3)
	h := newHarness(t, c, 120, 40, Options{})
	before := h.screen()
	c.mu.Lock()
	c.lost = true
	c.mu.Unlock()
	c.update(1, func(s *model.Snapshot) { s.Remaining = 1 })
	h.pump()
	if f := h.status(); !strings.Contains(f, "lost the jobs core") || !strings.Contains(h.screen(), "job 0 running") {
		t.Fatalf("lost link:\n%s", h.screen())
	}
	if !strings.Contains(before, "job 2 (flood)") {
		t.Fatal("control: the screen had the jobs")
	}
	c.mu.Lock()
	c.lost = false
	c.mu.Unlock()
	c.update(1, func(s *model.Snapshot) { s.Remaining = 0 })
	h.pump()
	if f := h.status(); strings.Contains(f, "lost") {
		t.Fatalf("the link is back, the message stays:\n%s", f)
	}
}

// TestConsoleNamesItself: the console starts jobs as Owner "console" and
// stops them as By "console" (or Options.Owner); jobs others started are
// tagged in the list and attributed in /job-status, with their notes.
func TestConsoleNamesItself(t *testing.T) {
	t.Parallel()
	c := fixtureCore(1)
	id := c.add(model.Snapshot{Command: "npm test", State: model.StateRunning, Started: t0, Owner: "claude-code",
		Notes: []string{"no cgroup v2 for the job (EROFS); stops rely on the subreaper walk"}}, 0)
	h := newHarness(t, c, 200, 60, Options{})
	h.pump()
	if s := h.screen(); !strings.Contains(s, "[claude-code] npm test") || strings.Contains(s, "[console]") {
		t.Fatalf("the list should tag the agent's job only:\n%s", s)
	}
	h.command("background sleep 9")
	h.press("x", "y")
	c.mu.Lock()
	owners, by := c.owners, c.killedBy
	c.mu.Unlock()
	if len(owners) != 1 || owners[0] != "console" || len(by) != 1 || by[0] != "console" {
		t.Fatalf("owners %q, killed by %q", owners, by)
	}
	h.command("job-status " + id.String())
	lines := strings.Join(h.m.overlay.lines, "\n")
	if !strings.Contains(lines, "\nstarted 12:00:00 by claude-code · no cgroup\n") || strings.Count(lines, "no cgroup v2") != 1 {
		t.Fatalf("overlay:\n%s", lines)
	}
}

// TestQuitWaitsForALaunchReport: q pressed while a job started at launch
// has not reported yet (it may already run) does not quit at once: once
// the report comes, it asks, since that job runs. With nothing on its way,
// q with no live job quits (the negative control).
func TestQuitWaitsForALaunchReport(t *testing.T) {
	t.Parallel()
	c := fixtureCore(0)
	h := newHarness(t, c, 120, 40, Options{})
	h.m.starting = 1 // a launch start is on its way
	h.press("q")
	if h.quit || h.m.confirm != nil {
		t.Fatalf("q before the launch report: quit %v, confirm %+v", h.quit, h.m.confirm)
	}
	id := c.add(model.Snapshot{Command: "sleep 30", State: model.StateRunning, Started: t0}, 0)
	s, _ := c.snap(id)
	h.send(startedMsg{reports: []model.Report{{Job: s}}, errs: []error{nil}})
	if h.quit || !strings.Contains(h.footer(2), "stop 1 running job and quit? y/n") {
		t.Fatalf("after the report: quit %v\n%s", h.quit, h.footer(2))
	}
	h.press("n")
	c.update(id, func(s *model.Snapshot) { s.State, s.Exit, s.Done = model.StateExited, &model.Exit{}, true })
	h.pump()
	h.press("q")
	if !h.quit {
		t.Fatal("q with nothing live and nothing starting should quit")
	}
}

// TestReword: the core's errors get the console's key or command that
// does what they ask, from the key map in use.
func TestReword(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fixtureCore(0), 80, 24, Options{})
	cases := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("%w: 8 jobs are running", model.ErrLimit), "too many running jobs: 8 jobs are running (x stops the selected job, /job-kill any job)"},
		{fmt.Errorf("%w: job 3 runs it", model.ErrDuplicate), "already running: job 3 runs it (select it in the list to read it; /job-kill stops it)"},
		{fmt.Errorf("%w: there is no job 9", model.ErrNotFound), "no such job: there is no job 9 (the list shows every job's ID and name; Tab completes them)"},
		{model.CheckCommand(""), "the command is empty or blank: give the shell command to run, for example \"npm run dev\""},
	}
	for _, c := range cases {
		if got := h.m.reword(c.err); got != c.want {
			t.Errorf("reword(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
