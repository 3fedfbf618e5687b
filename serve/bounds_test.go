package serve

import (
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// TestBoundsThroughTheTools: the bounds live in model and the core; serve
// rewords their errors and says which argument to fix. Each is a tool
// error in jobdeck's words, never the decoder's.
func TestBoundsThroughTheTools(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	ok(t, cs, toolBackground, map[string]any{"command": "a"})
	cases := []struct {
		name string
		tool string
		args map[string]any
		want []string
	}{
		{"since out of range", toolStatus, map[string]any{"id": 0, "since": uint64(18446744073709551615)}, []string{`"since" must be a whole number from 0 to 9007199254740992`}},
		{"since far out of range", toolStatus, map[string]any{"id": 0, "since": 1e30}, []string{`"since" must be a whole number`}},
		{"until over 4 KiB", toolStatus, map[string]any{"id": 0, "wait": 1, "until": strings.Repeat("a", model.MaxPatternBytes+1)}, []string{"4096-byte limit", "job_status's until"}},
		{"NUL in a command", toolBackground, map[string]any{"command": "echo a\x00b"}, []string{"NUL byte", `{"command": "npm run dev"}`}},
		{"grace over 5 min", toolKill, map[string]any{"id": 0, "grace": 300.5}, []string{"invalid arguments", "grace"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := fails(t, cs, c.tool, c.args)
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not contain %q", msg, w)
				}
			}
			if strings.Contains(msg, "json:") || strings.Contains(msg, "unmarshal") {
				t.Errorf("decoder words in %q", msg)
			}
		})
	}
}

// TestHugeUntilRefusedBeforeCompiling: a 1 MiB until is refused for its
// size before it is compiled: it is unbalanced at its end, so compiling
// it first would answer with a syntax error (after seconds of CPU).
func TestHugeUntilRefusedBeforeCompiling(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	ok(t, cs, toolBackground, map[string]any{"command": "a"})
	msg := fails(t, cs, toolStatus, map[string]any{"id": 0, "wait": 1, "until": strings.Repeat("(a|b)*", (1<<20)/6) + "("})
	if !strings.Contains(msg, "limit of a pattern") {
		t.Fatalf("%q, want the refusal of its size", shorten(msg))
	}
}

// TestFailedStartIsAToolError: a job whose shell could not start is a tool
// error (isError) that gives the reason, and is not noted again later.
func TestFailedStartIsAToolError(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{failStart: "no space left on device for the command file"}
	cs := connect(t, fc, nil)
	msg := fails(t, cs, toolBackground, map[string]any{"command": "echo hi"})
	if !strings.Contains(msg, "job 0 failed to start: no space left on device") {
		t.Fatalf("message %q", msg)
	}
	fc.mu.Lock()
	fc.failStart = ""
	fc.mu.Unlock()
	if _, text := ok(t, cs, toolBackground, map[string]any{"command": "echo ok"}); strings.Contains(text, "job 0") {
		t.Errorf("the failed job is noted again: %q", text)
	}
}

// TestOwnerAndStopper: jobs and stops carry the MCP client's name; jobs
// and stops of others are attributed in the text, the client's own are not.
func TestOwnerAndStopper(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil) // the client is named "test"
	res, text := ok(t, cs, toolBackground, map[string]any{"command": "a"})
	var r Report
	structured(t, res, &r)
	if fc.lastSpec.Owner != "test" || r.Owner != "test" || strings.Contains(text, "started by") {
		t.Errorf("own job: spec owner %q, structured %q, text %q", fc.lastSpec.Owner, r.Owner, text)
	}
	res, text = ok(t, cs, toolKill, map[string]any{"id": 0})
	r = Report{}
	structured(t, res, &r)
	if r.StoppedBy != "test" || strings.Contains(text, "asked by") {
		t.Errorf("own stop: stopped_by %q, text %q", r.StoppedBy, text)
	}
	// A job the console started and stopped.
	fc.Start(t.Context(), model.Spec{Command: "b", Owner: "console"})
	fc.Kill(t.Context(), 1, model.KillOptions{By: "console"})
	fc.mu.Lock()
	fc.jobs[1].snap.Notes = []string{"no cgroup v2 for the job; stops rely on the subreaper walk"}
	fc.mu.Unlock()
	res, text = ok(t, cs, toolStatus, map[string]any{"id": 1})
	r = Report{}
	structured(t, res, &r)
	for _, w := range []string{"\nstarted by console\n", "(asked by console)", "\nnote: no cgroup v2 for the job"} {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
	if r.Owner != "console" || r.StoppedBy != "console" || len(r.Notes) != 1 {
		t.Errorf("structured: %+v", r)
	}
	if strings.Count(text, "no cgroup v2") != 1 {
		t.Errorf("the note shows more than once:\n%s", text)
	}
}

// TestResolveOnce: a status or kill resolves its selector once and then
// works by ID.
func TestResolveOnce(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	ok(t, cs, toolBackground, map[string]any{"command": "a", "name": "web"})
	ok(t, cs, toolStatus, map[string]any{"id": "WEB"})
	ok(t, cs, toolKill, map[string]any{"id": "web"})
	fc.mu.Lock()
	defer fc.mu.Unlock()
	// background reads its report once, job_status once.
	if len(fc.statused) != 2 || fc.statused[0] != 0 || fc.statused[1] != 0 || len(fc.killed) != 1 || fc.killed[0] != 0 {
		t.Errorf("status by %v, kill by %v; want job 0 twice (background, job_status) and once", fc.statused, fc.killed)
	}
}
