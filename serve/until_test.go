package serve

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestEndToEndUntil: until against the real binary. The first wait of a
// client on a job looks at the whole ring, so a line already shown in the
// start report matches at once and says so; a second wait for the same
// pattern waits for the next match, never an older one; with since, only
// lines after it count.
func TestEndToEndUntil(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	// The job prints its second line once the test says so.
	trigger := filepath.Join(t.TempDir(), "go")
	_, text := ok(t, cs, toolBackground, map[string]any{"command": "echo ready; until [ -e " + trigger + " ]; do sleep 0.05; done; echo tick 2; sleep 30", "name": "srv"})
	if !strings.Contains(text, "> ready") {
		t.Fatalf("the start report should show ready:\n%s", text)
	}
	start := time.Now()
	_, text = ok(t, cs, toolStatus, map[string]any{"id": "srv", "wait": 30, "until": "ready|tick"})
	if !strings.Contains(text, "wait: matched line 1 at once") || !strings.Contains(text, "already in an earlier result") || time.Since(start) > 3*time.Second {
		t.Fatalf("a line shown in the start report must match the first wait at once:\n%s", text)
	}
	// The same pattern again: the next match, line 2, printed while the
	// wait runs (on a busy machine it may come before the call: then "at
	// once"; never line 1 again).
	time.AfterFunc(300*time.Millisecond, func() { os.WriteFile(trigger, nil, 0o600) })
	_, text = ok(t, cs, toolStatus, map[string]any{"id": "srv", "wait": 30, "until": "ready|tick"})
	if !strings.Contains(text, "wait: matched line 2 ") || strings.Contains(text, "already in an earlier result") {
		t.Fatalf("the second wait must wait for the next match:\n%s", text)
	}
	// Nothing newer matches: a third wait times out (negative control).
	_, text = ok(t, cs, toolStatus, map[string]any{"id": "srv", "wait": 0.5, "until": "ready|tick"})
	if !strings.Contains(text, `wait: timed out after 500ms; no line after line 2 matched "ready|tick"`) {
		t.Fatalf("no newer line: want a timeout:\n%s", text)
	}
	// With since, the lines after it count, whatever matched before.
	_, text = ok(t, cs, toolStatus, map[string]any{"id": "srv", "since": 1, "wait": 5, "until": "tick"})
	if !strings.Contains(text, "wait: matched line 2 at once") {
		t.Fatalf("with since 1, line 2 matches:\n%s", text)
	}
	ok(t, cs, toolKill, map[string]any{"id": "srv", "grace": 0})

	// Start and wait in one call.
	start = time.Now()
	res, text := ok(t, cs, toolBackground, map[string]any{"command": "echo booting; sleep 0.5; echo listening on 8080; sleep 30", "wait": 20, "until": "listening"})
	var r Report
	structured(t, res, &r)
	if r.Wait == nil || r.Wait.Reason != "matched" || r.Wait.MatchSeq != 2 || !strings.Contains(text, "> listening on 8080") || time.Since(start) > 10*time.Second {
		t.Fatalf("background with wait and until:\n%s\n%+v", text, r.Wait)
	}
	if first, _, _ := strings.Cut(text, "\n"); !strings.HasPrefix(first, "job 1 running 0:0") || !strings.HasSuffix(first, " echo booting; sleep 0.5; echo listening on 8080; sleep 30") {
		t.Errorf("background's report shows the whole command: %q", text)
	}
	// The wait's sentence says when the line came after the start: the
	// start's own report time is no part of it.
	if m := regexp.MustCompile(`\nwait: matched line 2 ([0-9.]+)(ms|s) after the start\n`).FindStringSubmatch(text); m == nil {
		t.Errorf("background's wait does not say when the match came after the start:\n%s", text)
	} else if d, _ := time.ParseDuration(m[1] + m[2]); d < 400*time.Millisecond {
		t.Errorf("the match came %v after the start, before the job's sleep 0.5 ended:\n%s", d, text)
	}
	ok(t, cs, toolKill, map[string]any{"id": 1, "grace": 0})
}
