//go:build unix

package session

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inFlight starts a background call that waits (for a line that never
// comes) on a job of the test, and returns once the job runs: the call is
// then in the session. The call's error arrives on the channel.
func inFlight(w *world, cs *mcp.ClientSession) <-chan answer {
	done := make(chan answer, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "background", Arguments: map[string]any{
			"command": w.job("sleep 300"), "wait": 60, "until": "never printed",
		}})
		a := answer{err: err}
		if res != nil {
			a.text = testkit.ToolText(res)
		}
		done <- a
	}()
	waitFor(w.t, 20*time.Second, "the job of the call in flight", func() bool { return len(w.marked()) > 0 })
	return done
}

// answer is how a call in flight ended: an error, or a result's text.
type answer struct {
	text string
	err  error
}

// answeredForEnd reports whether a is one of the three answers a call in
// flight may get when the session ends under it: the relay's error (want
// is a phrase of it); the session's own error for a call it still owed
// when its context ended (serve.RunStream answers those before the
// connection closes, and the relay passes it on); or the wait's own
// answer, cut short because the session is ending, when the handler got
// there first.
func (a answer) answeredForEnd(want string) bool {
	if a.err != nil {
		return strings.Contains(a.err.Error(), want) || strings.Contains(a.err.Error(), "jobdeck is shutting down")
	}
	return strings.Contains(a.text, "\nwait: cut short ") && strings.Contains(a.text, "the session is ending")
}

// TestRelayAnswersWhenSessionEnds: a call in flight when the session is
// stopped under the agent is answered, with an error that says the
// session ended (it went unanswered: a client without a timeout hung).
func TestRelayAnswersWhenSessionEnds(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, _ := w.agent("agent", "--grace", "1s")
	done := inFlight(w, a)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := stopIn(ctx, w.sdir, Target{Worktree: w.wt}); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-done:
		if !a.answeredForEnd("session ended before it answered") {
			t.Errorf("the call in flight ended with %v (%q), want the relay's answer or the wait cut short", a.err, a.text)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call in flight was never answered")
	}
	w.noLeftovers(20 * time.Second)
}

// TestRelaySIGTERM: SIGTERM to `jobdeck --serve` with a call in flight
// ends it at once (it waited up to 30 s for the session to cut the wait),
// the call answered with why, and the session goes on to linger and end.
func TestRelaySIGTERM(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, cmd := w.agent("agent", "--grace", "1s", "--linger", "0s")
	done := inFlight(w, a)
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case a := <-done:
		if a.err == nil || !strings.Contains(a.err.Error(), "told to exit") {
			t.Errorf("the call in flight ended with %v (%q), want the relay's answer", a.err, a.text)
		}
	case <-time.After(25 * time.Second):
		t.Fatal("the call in flight was never answered")
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("jobdeck --serve took %v to answer after SIGTERM", d)
	}
	w.noLeftovers(20 * time.Second)
}

// TestEachLine: every byte passes, in order; f sees each line within keep
// (a last one without newline too) and no longer one; of a thousand calls
// the relay answers itself only the one the session left unanswered.
func TestEachLine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 200<<10)
	in := "a\n" + long + "\n\nb"
	var lines []string
	var passed strings.Builder
	err := eachLine(strings.NewReader(in), 1<<10, func(l []byte) { lines = append(lines, string(l)) },
		func(c []byte) error { passed.Write(c); return nil })
	if err != nil || passed.String() != in {
		t.Fatalf("eachLine passed %d bytes of %d, err %v", passed.Len(), len(in), err)
	}
	if want := []string{"a\n", "\n", "b"}; strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", lines, want)
	}

	c := newRelayCalls()
	var calls, answers strings.Builder
	for i := range 1000 {
		calls.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"ping"}` + "\n")
		if i != 7 {
			answers.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"result":{}}` + "\n")
		}
	}
	c.copyCalls(&strings.Builder{}, strings.NewReader(calls.String()))
	if err := c.copyAnswers(&strings.Builder{}, strings.NewReader(answers.String())); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	c.answerAll(&out, "gone")
	if got := strings.Count(out.String(), "\n"); got != 1 || !strings.Contains(out.String(), `"id":7`) || !strings.Contains(out.String(), "gone") {
		t.Errorf("answerAll wrote %q, want one answer to id 7", out.String())
	}
}

// TestAgentDirGone: an agent whose own directory was removed, starting a
// job without cwd, is told that its directory is gone, not that a cwd it
// never gave does not exist.
func TestAgentDirGone(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	sub := filepath.Join(w.wt, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := w.cmd("--serve", "--linger", "0s")
	cmd.Dir = sub
	a := testkit.Agent(t, cmd, "agent")
	if err := os.Remove(sub); err != nil {
		t.Fatal(err)
	}
	text := w.call(a, "background", map[string]any{"command": "pwd"}, true)
	if !strings.Contains(text, "the directory "+sub+" no longer exists") || strings.Contains(text, `cwd ""`) ||
		strings.Contains(text, "leave cwd out") || !strings.Contains(text, "give cwd") {
		t.Errorf("background in a removed directory: %s", text)
	}
}

// TestLongSocketPath: a session directory too long for a socket path is
// refused before any dial, naming the variable to change (connect said
// only "invalid argument").
func TestLongSocketPath(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 100))
	_, err := joinIn(t.Context(), dir, JoinOptions{Target: Target{Worktree: "/x"}, Kind: KindControl, NoStart: true})
	if err == nil || !strings.Contains(err.Error(), "at most 103") || !strings.Contains(err.Error(), EnvDir) {
		t.Errorf("join with a %d-byte directory: %v", len(dir), err)
	}
}
