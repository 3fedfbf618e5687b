package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

var (
	selfClient  = model.Client{ID: 2, Kind: "console", Name: "console", PID: 100}
	agentClient = model.Client{ID: 1, Kind: "mcp", Name: "claude-code", PID: 4242}
)

// TestSessionShown: on a shared session the job list names the session,
// the status line says who else is attached, and both follow the clients
// as they come and go (an EventSession); a private core shows neither.
func TestSessionShown(t *testing.T) {
	t.Parallel()
	c := fixtureCore(1)
	h := newHarness(t, c, 120, 40, Options{})
	if s := h.screen(); strings.Contains(s, "jobs ·") || strings.Contains(s, "with ") {
		t.Fatalf("a private core shows a session:\n%s", s)
	}
	c.setSession("/home/me/src/app", selfClient)
	h.pump()
	if s := h.screen(); !strings.Contains(s, "jobs · app") || strings.Contains(s, "with claude-code") {
		t.Fatalf("alone on the session:\n%s", s)
	}
	if title := h.m.View().WindowTitle; title != "jobdeck · /home/me/src/app" {
		t.Fatalf("window title %q", title)
	}
	c.setSession("~/src/app", selfClient, agentClient)
	h.pump()
	if f := h.footer(2); !strings.Contains(f, "· with claude-code") {
		t.Fatalf("an agent attached, the status line does not say so:\n%s", f)
	}
	c.setSession("~/src/app", selfClient)
	h.pump()
	if f := h.footer(2); strings.Contains(f, "claude-code") {
		t.Fatalf("the agent left, the status line still names it:\n%s", f)
	}
}

// TestQuitDetaches: with another client attached, q quits at once without
// a question, whatever runs; alone, it asks as on a private core.
func TestQuitDetaches(t *testing.T) {
	t.Parallel()
	for _, others := range []bool{true, false} {
		t.Run(fmt.Sprint("others=", others), func(t *testing.T) {
			t.Parallel()
			c := fixtureCore(3) // jobs 0 and 2 run
			if others {
				c.setSession("~/src/app", selfClient, agentClient)
			} else {
				c.setSession("~/src/app", selfClient)
			}
			h := newHarness(t, c, 120, 40, Options{})
			h.press("q")
			switch {
			case others && (!h.quit || h.m.confirm != nil):
				t.Fatalf("with an agent attached, q should detach at once:\n%s", h.footer(2))
			case !others && (h.quit || h.m.confirm == nil):
				t.Fatalf("alone with running jobs, q should ask:\n%s", h.footer(2))
			}
			if !others && !strings.Contains(h.footer(2), "stop 2 running jobs and quit? y/n") {
				t.Fatalf("the question:\n%s", h.footer(2))
			}
			if len(c.killed) > 0 {
				t.Fatalf("quitting killed %v", c.killed)
			}
		})
	}
}

// reconnectCore is a fakeCore that can be joined again.
type reconnectCore struct {
	*fakeCore
	reconnects int
}

func (r *reconnectCore) Reconnect(context.Context) error {
	r.mu.Lock()
	r.reconnects++
	r.lost = false
	r.mu.Unlock()
	return nil
}

// TestSessionLost: when the subscription reports a lost link, the status
// line says so and what to do; q quits without a question (the jobs are
// out of reach), r joins again, subscribes anew and refetches.
func TestSessionLost(t *testing.T) {
	t.Parallel()
	fc := fixtureCore(3)
	fc.setSession("~/src/app", selfClient)
	c := &reconnectCore{fakeCore: fc}
	h := newHarness(t, fc, 160, 40, Options{})
	h.m.core = c // the same fake, now also a Reconnecter
	fc.mu.Lock()
	fc.lost = true
	fc.mu.Unlock()
	h.armed = false
	h.send(eventsMsg{err: fmt.Errorf("%w: the session ended: stopped by `jobdeck sessions stop`", model.ErrUnavailable)})
	f := h.footer(2)
	if !strings.Contains(f, "the session ended") || !strings.Contains(f, "r joins again · q quits") || !strings.Contains(f, "session gone") {
		t.Fatalf("lost link:\n%s", f)
	}
	if s := h.screen(); !strings.Contains(s, "jobs · app · gone: as last seen") {
		t.Fatalf("the list should say its jobs are as last seen:\n%s", s)
	}
	if cmd := h.m.ensureClock(); cmd != nil {
		t.Fatal("the clock ticks on for the jobs of a lost session")
	}
	h.press("x") // nothing to act on
	if h.m.confirm != nil {
		t.Fatal("x asked to kill a job of a lost session")
	}
	h.press("r")
	if c.reconnects != 1 || h.m.lost != "" || !strings.Contains(h.footer(2), "joined the session of ~/src/app again") {
		t.Fatalf("r: %d reconnects, lost %q:\n%s", c.reconnects, h.m.lost, h.footer(2))
	}
	fc.mu.Lock()
	fc.lost = true
	fc.mu.Unlock()
	h.send(eventsMsg{err: fmt.Errorf("%w: gone", model.ErrUnavailable)})
	h.press("q")
	if !h.quit || h.m.confirm != nil {
		t.Fatalf("q on a lost link should quit at once:\n%s", h.footer(2))
	}
}

// TestQuitQuestionThenAgent: an agent that attaches while the quit
// question is open turns y into a detach: nothing is stopped.
func TestQuitQuestionThenAgent(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3)
	c.setSession("/home/me/src/app", selfClient)
	h := newHarness(t, c, 160, 40, Options{})
	h.pump()
	h.press("q")
	if h.m.confirm == nil {
		t.Fatal("alone with running jobs, q should ask")
	}
	c.setSession("/home/me/src/app", selfClient, agentClient)
	h.pump()
	if f := h.footer(2); !strings.Contains(f, "claude-code attached meanwhile: y only detaches") {
		t.Fatalf("the question should say the agent came:\n%s", f)
	}
	h.press("y")
	if !h.quit || len(c.killed) > 0 {
		t.Fatalf("y with an agent attached: quit %v, killed %v", h.quit, c.killed)
	}
}
