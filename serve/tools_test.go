package serve

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestToolsListed(t *testing.T) {
	t.Parallel()
	cs := connect(t, &fakeCore{}, nil)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	if len(tools) != 3 {
		t.Fatalf("tools = %v, want background, job_status, job_kill", tools)
	}
	cases := []struct {
		name        string
		readOnly    bool
		destructive bool
		required    []string
		mentions    []string
	}{
		{toolBackground, false, true, []string{"command"}, []string{"job_status", "job_kill", "wait", "until"}},
		{toolStatus, true, false, nil, []string{"since", "wait", "until", "lines", "head", "grep", "context", "max_bytes", "timeout", "any job"}},
		{toolKill, false, true, []string{"id"}, []string{"job_status", "grace"}},
	}
	for _, c := range cases {
		tool := tools[c.name]
		if tool == nil {
			t.Errorf("tool %s missing", c.name)
			continue
		}
		a := tool.Annotations
		if a == nil {
			t.Errorf("%s: no annotations", c.name)
			continue
		}
		if a.ReadOnlyHint != c.readOnly {
			t.Errorf("%s: readOnlyHint = %v, want %v", c.name, a.ReadOnlyHint, c.readOnly)
		}
		if d := a.DestructiveHint == nil || *a.DestructiveHint; !c.readOnly && d != c.destructive {
			t.Errorf("%s: destructiveHint = %v, want %v", c.name, d, c.destructive)
		}
		for _, m := range c.mentions {
			if !strings.Contains(tool.Description, m) {
				t.Errorf("%s: description does not mention %q: %s", c.name, m, tool.Description)
			}
		}
		if len(tool.Description) > 800 {
			t.Errorf("%s: description is %d bytes; keep it short", c.name, len(tool.Description))
		}
		in, _ := json.Marshal(tool.InputSchema)
		out, _ := json.Marshal(tool.OutputSchema)
		for what, b := range map[string][]byte{"input": in, "output": out} {
			if strings.Contains(string(b), `"null"`) {
				t.Errorf("%s: %s schema has a null type: %s", c.name, what, b)
			}
			if len(b) < 10 {
				t.Errorf("%s: no %s schema", c.name, what)
			}
		}
		var schema struct {
			Type       string                     `json:"type"`
			Required   []string                   `json:"required"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(in, &schema); err != nil {
			t.Fatal(err)
		}
		if schema.Type != "object" || strings.Join(schema.Required, ",") != strings.Join(c.required, ",") {
			t.Errorf("%s: input schema type %q required %v, want object %v", c.name, schema.Type, schema.Required, c.required)
		}
		if id, ok := schema.Properties["id"]; ok {
			var sel struct {
				AnyOf []struct {
					Type string `json:"type"`
				} `json:"anyOf"`
			}
			json.Unmarshal(id, &sel)
			if len(sel.AnyOf) != 2 || sel.AnyOf[0].Type != "integer" || sel.AnyOf[1].Type != "string" {
				t.Errorf("%s: id schema %s, want anyOf integer/string", c.name, id)
			}
		}
	}
	var status struct {
		Properties map[string]struct {
			Minimum *float64 `json:"minimum"`
			Maximum *float64 `json:"maximum"`
		} `json:"properties"`
	}
	b, _ := json.Marshal(tools[toolStatus].InputSchema)
	json.Unmarshal(b, &status)
	if p := status.Properties["lines"]; p.Minimum == nil || *p.Minimum != 1 || p.Maximum == nil || *p.Maximum != 2000 {
		t.Errorf("lines bounds = %+v, want 1..2000", p)
	}
	if p := status.Properties["wait"]; p.Maximum == nil || *p.Maximum != 600 {
		t.Errorf("wait bounds = %+v, want ..600", p)
	}
}

func TestBackground(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	res, text := ok(t, cs, toolBackground, map[string]any{"command": "npm run dev", "name": "web", "cwd": dir, "tty": false})
	if want := "job 0 (web) running 0:02 npm run dev"; !strings.HasPrefix(text, want) {
		t.Errorf("text = %q, want prefix %q", text, want)
	}
	if !strings.Contains(text, `[next: job_status {"id":0,"since":0}]`) {
		t.Errorf("text has no cursor hint: %q", text)
	}
	if !reflect.DeepEqual(fc.lastSpec, model.Spec{Command: "npm run dev", Name: "web", Dir: dir, NoTTY: true, Owner: "test"}) {
		t.Errorf("spec = %+v", fc.lastSpec)
	}
	var r Report
	structured(t, res, &r)
	if r.ID != 0 || r.Name != "web" || r.State != "running" || r.PID != 1000 || r.Command != "npm run dev" || r.Lines == nil {
		t.Errorf("structured = %+v", r)
	}
	// tty defaults to true.
	ok(t, cs, toolBackground, map[string]any{"command": "make"})
	if fc.lastSpec.NoTTY {
		t.Errorf("tty not given: NoTTY = true, want false")
	}
}

func TestListJobs(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	res, text := ok(t, cs, toolStatus, map[string]any{})
	if !strings.HasPrefix(text, "no jobs") || !strings.Contains(text, "background") {
		t.Errorf("empty list text = %q", text)
	}
	var list struct {
		Jobs []Brief `json:"jobs"`
	}
	structured(t, res, &list)
	if list.Jobs == nil || len(list.Jobs) != 0 {
		t.Errorf("empty list structured = %+v, want jobs: []", res.StructuredContent)
	}
	ok(t, cs, toolBackground, map[string]any{"command": "npm run dev"})
	ok(t, cs, toolBackground, map[string]any{"command": "make test", "name": "t"})
	fc.end(1, model.Exit{Code: 1})
	res, text = ok(t, cs, toolStatus, nil)
	want := "job 0 running 0:02 npm run dev\njob 1 (t) exited 1 0:01 make test"
	if text != want {
		t.Errorf("list text = %q, want %q", text, want)
	}
	structured(t, res, &list)
	if len(list.Jobs) != 2 || list.Jobs[1].ExitCode == nil || *list.Jobs[1].ExitCode != 1 || list.Jobs[1].Header != "job 1 (t) exited 1 0:01 make test" {
		t.Errorf("list structured = %+v", list.Jobs)
	}
	// The list showed job 1 finished: no note about it afterwards.
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": 0}); strings.Contains(text, "finished") {
		t.Errorf("note after the list showed the job: %q", text)
	}
	// Finished jobs the core no longer keeps are said, not silently gone.
	fc.mu.Lock()
	fc.dropped = 3
	fc.mu.Unlock()
	if _, text := ok(t, cs, toolStatus, nil); !strings.HasSuffix(text, "(3 older finished jobs were dropped: only the most recent finished jobs are kept)") {
		t.Errorf("list with dropped jobs = %q", text)
	}
}

func TestSinceCursor(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	ok(t, cs, toolBackground, map[string]any{"command": "seq 10"})
	for i := 1; i <= 10; i++ {
		stream := model.StreamOut
		if i == 5 {
			stream = model.StreamErr
		}
		fc.print(0, stream, "line "+string(rune('0'+i%10)))
	}
	res, text := ok(t, cs, toolStatus, map[string]any{"id": 0, "lines": 3})
	var r Report
	structured(t, res, &r)
	if len(r.Lines) != 3 || r.Lines[0].Seq != 8 || r.Next != 10 || r.Last != 10 || r.Skipped != 7 {
		t.Errorf("tail 3: %+v", r)
	}
	if !strings.Contains(text, "> line 8\n> line 9\n> line 0") {
		t.Errorf("tail text = %q", text)
	}
	// With since, lines are the newest after it, and the result gives the
	// call that reads the ones before; head gives the oldest.
	res, text = ok(t, cs, toolStatus, map[string]any{"id": 0, "since": 3, "lines": 2})
	r = Report{}
	structured(t, res, &r)
	if len(r.Lines) != 2 || r.Lines[0].Seq != 9 || r.Next != 10 || r.Skipped != 5 {
		t.Errorf("since 3 lines 2: %+v", r)
	}
	if !strings.Contains(text, `[… 5 lines not shown (earlier): job_status {"id":0,"since":3,"head":5}]`) {
		t.Errorf("since text = %q", text)
	}
	res, text = ok(t, cs, toolStatus, map[string]any{"id": 0, "since": 3, "head": 2})
	r = Report{}
	structured(t, res, &r)
	if len(r.Lines) != 2 || r.Lines[0].Seq != 4 || r.Lines[1].Stream != "err" || r.Next != 5 || r.More != 5 {
		t.Errorf("since 3 head 2: %+v", r)
	}
	if !strings.Contains(text, "! line 5") || !strings.Contains(text, `[… 5 lines more: job_status {"id":0,"since":5,"head":2}]`) {
		t.Errorf("head text = %q", text)
	}
	// Reading on with next gives the rest, no duplicates, no gap.
	res, _ = ok(t, cs, toolStatus, map[string]any{"id": 0, "since": r.Next})
	r = Report{}
	structured(t, res, &r)
	if len(r.Lines) != 5 || r.Lines[0].Seq != 6 || r.Next != 10 || r.More != 0 || r.Skipped != 0 {
		t.Errorf("since 5: %+v", r)
	}
	res, _ = ok(t, cs, toolStatus, map[string]any{"id": 0, "since": 10})
	r = Report{}
	structured(t, res, &r)
	if len(r.Lines) != 0 || r.Next != 10 {
		t.Errorf("since last: %+v", r)
	}
}

func TestWaitReasons(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	ok(t, cs, toolBackground, map[string]any{"command": "server"})
	ok(t, cs, toolBackground, map[string]any{"command": "build"})
	ok(t, cs, toolBackground, map[string]any{"command": "idle"})
	fc.setScript(0, false, "starting", "ready on :8080", "after")
	fc.setScript(1, true, "compiling")

	cases := []struct {
		name   string
		args   map[string]any
		reason string
		text   string
	}{
		// The words an agent reads from the real core (docs/agent-tools.md's
		// session), now made by serve alone.
		{"matched", map[string]any{"id": 0, "wait": 30, "until": "ready|listening"}, "matched", "wait: matched line 2 after 2s (printed 2s ago)\n"},
		{"ended", map[string]any{"id": 1, "wait": 30, "until": "never"}, "ended", "wait: the job ended after 1s\n"},
		{"already ended", map[string]any{"id": 1, "wait": 5}, "ended", "wait: the job ended at once\n"},
		{"timeout", map[string]any{"id": 2, "wait": 5, "until": "ready"}, "timeout", "wait: timed out after 5s; no line matched \"ready\"\n"},
		{"fractional timeout", map[string]any{"id": 2, "wait": 0.25}, "timeout", "wait: timed out after 300ms\n"},
	}
	for _, c := range cases {
		res, text := ok(t, cs, toolStatus, c.args)
		if !strings.Contains(text, c.text) {
			t.Errorf("%s: text %q does not contain %q", c.name, text, c.text)
		}
		var r Report
		structured(t, res, &r)
		if r.Wait == nil || r.Wait.Reason != c.reason {
			t.Errorf("%s: wait = %+v, want reason %s", c.name, r.Wait, c.reason)
		}
	}
	// No wait asked: no wait line.
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": 0}); strings.Contains(text, "wait:") {
		t.Errorf("wait line without wait: %q", text)
	}
}

func TestKill(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	ok(t, cs, toolBackground, map[string]any{"command": "sleep 100"})
	res, text := ok(t, cs, toolKill, map[string]any{"id": 0, "grace": 0.5})
	if !strings.HasPrefix(text, "job 0 killed by SIGTERM") {
		t.Errorf("kill text = %q", text)
	}
	var r Report
	structured(t, res, &r)
	if r.Signal != "SIGTERM" || r.ExitCode != nil || r.State != "exited" || r.StillRunning != 0 {
		t.Errorf("kill structured = %+v", r)
	}
	// Killing a finished job returns its final report, not an error.
	_, again := ok(t, cs, toolKill, map[string]any{"id": 0})
	if !strings.HasPrefix(again, "job 0 killed by SIGTERM") {
		t.Errorf("second kill = %q", again)
	}
}
