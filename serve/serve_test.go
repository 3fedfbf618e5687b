package serve

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect serves core in memory and returns a connected client session.
func connect(t *testing.T, core Core, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return connectServer(t, newServer(core, options{progressEvery: 20 * time.Millisecond, now: func() time.Time { return t0.Add(2 * time.Second) }}), copts)
}

func connectServer(t *testing.T, s *server, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.mcp.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, copts)
	cs, err := client.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and fails the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error (want a result): %v", name, args, err)
	}
	checkPlain(t, res)
	return res
}

// ok calls a tool and fails the test on any error.
func ok(t *testing.T, cs *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, string) {
	t.Helper()
	res := call(t, cs, name, args)
	text := textOf(res)
	if res.IsError {
		t.Fatalf("%s %v: tool error: %s", name, args, text)
	}
	return res, text
}

// fails calls a tool and returns the tool error's text; it fails the test
// unless the call was a tool error.
func fails(t *testing.T, cs *mcp.ClientSession, name string, args any) string {
	t.Helper()
	res := call(t, cs, name, args)
	text := textOf(res)
	if !res.IsError {
		t.Fatalf("%s %v: want a tool error, got result %q", name, args, text)
	}
	if res.StructuredContent != nil {
		t.Errorf("%s: error result has structured content %v", name, res.StructuredContent)
	}
	return text
}

func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// structured decodes a result's structured content into v.
func structured(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
}

// checkPlain asserts that every string of the result (text and structured)
// is valid UTF-8 without escape or control bytes other than \n and \t.
func checkPlain(t *testing.T, res *mcp.CallToolResult) {
	t.Helper()
	if !plainOK(textOf(res)) {
		t.Errorf("text is not plain: %q", textOf(res))
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if !plainOK(v) {
				t.Errorf("structured string is not plain: %q", v)
			}
		case map[string]any:
			for k, x := range v {
				walk(k)
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(res.StructuredContent)
}

func plainOK(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return false
		}
	}
	return true
}

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
		{toolBackground, false, true, []string{"command"}, []string{"job_status", "job_kill", "since", "until"}},
		{toolStatus, true, false, nil, []string{"since", "wait", "until", "lines"}},
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
		if len(tool.Description) > 600 {
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
	if fc.lastSpec != (model.Spec{Command: "npm run dev", Name: "web", Dir: dir, NoTTY: true}) {
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

// TestBadInput: every bad input is a tool error (never a protocol error)
// whose message says what to do instead.
func TestBadInput(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	ok(t, cs, toolBackground, map[string]any{"command": "a", "name": "web"})
	ok(t, cs, toolBackground, map[string]any{"command": "b", "name": "Web"})
	ok(t, cs, toolBackground, map[string]any{"command": "c", "name": "api"})
	fc.print(2, model.StreamOut, "one")

	cases := []struct {
		name string
		tool string
		args any
		want []string // substrings of the message
	}{
		{"empty command", toolBackground, map[string]any{"command": ""}, []string{"command is empty"}},
		{"no command", toolBackground, map[string]any{"name": "x"}, []string{"invalid arguments", "command", "background takes"}},
		{"blank command", toolBackground, map[string]any{"command": " \t\n "}, []string{"command is empty", `{"command": "npm run dev"}`}},
		{"command over 1 MiB", toolBackground, map[string]any{"command": strings.Repeat("x", model.MaxCommandBytes+1)}, []string{"1 MiB", "script file"}},
		{"cwd missing", toolBackground, map[string]any{"command": "ls", "cwd": filepath.Join(filepath.Dir(file), "nope")}, []string{"does not exist", "leave cwd out"}},
		{"cwd below a file", toolBackground, map[string]any{"command": "ls", "cwd": filepath.Join(file, "nope")}, []string{"does not exist"}},
		{"cwd is a file", toolBackground, map[string]any{"command": "ls", "cwd": file}, []string{"is not a directory"}},
		{"unknown id", toolStatus, map[string]any{"id": 9}, []string{"no such job", "job_status without id"}},
		{"unknown id as string", toolKill, map[string]any{"id": "9"}, []string{"no such job"}},
		{"unknown name", toolStatus, map[string]any{"id": "db"}, []string{"no such job", `"db"`}},
		{"ambiguous name", toolKill, map[string]any{"id": "WEB"}, []string{"more than one job", "use the ID"}},
		{"bad until", toolStatus, map[string]any{"id": 0, "wait": 1, "until": "ready("}, []string{"until is not a valid regular expression", "missing closing )", "RE2"}},
		{"until without wait", toolStatus, map[string]any{"id": 0, "until": "ready"}, []string{"until needs wait", `"wait": 30`}},
		{"lines 0", toolStatus, map[string]any{"id": 0, "lines": 0}, []string{"invalid arguments", "lines", "1-2000"}},
		{"lines 2001", toolStatus, map[string]any{"id": 0, "lines": 2001}, []string{"invalid arguments", "lines", "1-2000"}},
		{"wait negative", toolStatus, map[string]any{"id": 0, "wait": -1}, []string{"invalid arguments", "wait", "0-600"}},
		{"wait over max", toolStatus, map[string]any{"id": 0, "wait": 601}, []string{"invalid arguments", "wait", "0-600"}},
		{"grace over max", toolKill, map[string]any{"id": 0, "grace": 301}, []string{"invalid arguments", "grace"}},
		{"since beyond last", toolStatus, map[string]any{"id": 2, "since": 5}, []string{"beyond the last line", "next"}},
		{"lines without id", toolStatus, map[string]any{"lines": 5}, []string{"need an id", "lists every job"}},
		{"kill without id", toolKill, map[string]any{}, []string{"invalid arguments", "id", "job_kill takes"}},
		{"blank id", toolKill, map[string]any{"id": "  "}, []string{"id is empty"}},
		{"arguments not an object", toolStatus, []int{1, 2}, []string{"arguments must be a JSON object", "job_status takes"}},
		{"arguments a string", toolBackground, "ls", []string{"arguments must be a JSON object", "background takes"}},
		{"command mistyped", toolBackground, map[string]any{"command": 5}, []string{"invalid arguments", "command", "background takes"}},
		{"tty mistyped", toolBackground, map[string]any{"command": "ls", "tty": "yes"}, []string{"invalid arguments", "tty"}},
		{"unknown argument", toolBackground, map[string]any{"cmd": "ls"}, []string{"invalid arguments", "background takes"}},
		{"lines mistyped", toolStatus, map[string]any{"id": 0, "lines": "50"}, []string{"invalid arguments", "lines"}},
		{"lines fractional", toolStatus, map[string]any{"id": 0, "lines": 2.5}, []string{"invalid arguments", "lines"}},
		{"id mistyped", toolStatus, map[string]any{"id": true}, []string{"invalid arguments", "id"}},
		{"id fractional", toolKill, map[string]any{"id": 1.5}, []string{"invalid arguments", "id"}},
		{"id negative", toolKill, map[string]any{"id": -1}, []string{"invalid arguments", "id"}},
		{"since negative", toolStatus, map[string]any{"id": 0, "since": -1}, []string{"invalid arguments", "since"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := fails(t, cs, c.tool, c.args)
			t.Logf("%s", shorten(msg))
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not contain %q", msg, w)
				}
			}
		})
	}
	// Nothing was started or lost by the bad calls.
	if n := len(fc.List()); n != 3 {
		t.Errorf("%d jobs after bad calls, want 3", n)
	}
}

func TestNinthJobRefused(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	for i := range 8 {
		ok(t, cs, toolBackground, map[string]any{"command": "sleep " + string(rune('a'+i))})
	}
	msg := fails(t, cs, toolBackground, map[string]any{"command": "sleep 9"})
	for _, w := range []string{"too many running jobs", "0, 1, 2", "job_kill"} {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not contain %q", msg, w)
		}
	}
	// Negative control: once one ends, a ninth start works.
	ok(t, cs, toolKill, map[string]any{"id": 3})
	ok(t, cs, toolBackground, map[string]any{"command": "sleep 9"})
}

func TestSelectorForms(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	ok(t, cs, toolBackground, map[string]any{"command": "a"})
	ok(t, cs, toolBackground, map[string]any{"command": "b", "name": "Web"})
	for _, id := range []any{1, "1", " 1 ", "web", "WEB", 1.0} {
		res, _ := ok(t, cs, toolStatus, map[string]any{"id": id})
		var r Report
		structured(t, res, &r)
		if r.ID != 1 {
			t.Errorf("id %#v: got job %d, want 1", id, r.ID)
		}
	}
	// null arguments mean "not given".
	ok(t, cs, toolStatus, map[string]any{"id": 1, "lines": nil, "since": nil, "wait": nil, "until": nil})
	res, _ := ok(t, cs, toolStatus, map[string]any{"id": nil})
	var list struct{ Jobs []Brief }
	structured(t, res, &list)
	if len(list.Jobs) != 2 {
		t.Errorf("id null: want the list of 2 jobs, got %+v", list)
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
	res, text = ok(t, cs, toolStatus, map[string]any{"id": 0, "since": 3, "lines": 2})
	r = Report{}
	structured(t, res, &r)
	if len(r.Lines) != 2 || r.Lines[0].Seq != 4 || r.Lines[1].Stream != "err" || r.Next != 5 || r.More != 5 {
		t.Errorf("since 3 lines 2: %+v", r)
	}
	if !strings.Contains(text, "! line 5") || !strings.Contains(text, `[… 5 more lines: job_status {"id":0,"since":5}]`) {
		t.Errorf("since text = %q", text)
	}
	// Reading on with next gives the rest, no duplicates, no gap.
	res, _ = ok(t, cs, toolStatus, map[string]any{"id": 0, "since": r.Next})
	r = Report{}
	structured(t, res, &r)
	if len(r.Lines) != 5 || r.Lines[0].Seq != 6 || r.Next != 10 || r.More != 0 {
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
		{"matched", map[string]any{"id": 0, "wait": 30, "until": "ready|listening"}, "matched", `wait: matched "ready|listening" after 2.0s (line 2)`},
		{"ended", map[string]any{"id": 1, "wait": 30, "until": "never"}, "ended", "wait: job ended after 1.0s"},
		{"already ended", map[string]any{"id": 1, "wait": 5}, "ended", "wait: job ended"},
		{"timeout", map[string]any{"id": 2, "wait": 5, "until": "ready"}, "timeout", `wait: timed out after 5s; no new line matched "ready"`},
		{"fractional timeout", map[string]any{"id": 2, "wait": 0.25}, "timeout", "wait: timed out after 0.25s"},
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

// TestNotesOnce: a job that finished since the client last looked is noted
// at the end of the next result (error results too), exactly once, per
// session.
func TestNotesOnce(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	ok(t, cs, toolBackground, map[string]any{"command": "npm run dev"})
	ok(t, cs, toolBackground, map[string]any{"command": "make test"})
	ok(t, cs, toolBackground, map[string]any{"command": "make lint"})
	fc.end(1, model.Exit{Code: 1})

	note1 := `job 1 exited 1 0:01 make test (finished; job_status {"id":1} for its output)`
	res, text := ok(t, cs, toolStatus, map[string]any{"id": 0})
	if !strings.HasSuffix(text, "\n\n"+note1) {
		t.Errorf("first result after exit: %q, want note %q at the end", text, note1)
	}
	var r Report
	structured(t, res, &r)
	if len(r.Finished) != 1 || r.Finished[0].ID != 1 || *r.Finished[0].ExitCode != 1 {
		t.Errorf("structured finished = %+v", r.Finished)
	}
	res, text = ok(t, cs, toolStatus, map[string]any{"id": 0})
	if strings.Contains(text, "finished") {
		t.Errorf("note repeated: %q", text)
	}
	r = Report{}
	structured(t, res, &r)
	if len(r.Finished) != 0 {
		t.Errorf("structured note repeated: %+v", r.Finished)
	}

	// Error results carry notes too.
	fc.end(2, model.Exit{Signal: 9})
	msg := fails(t, cs, toolStatus, map[string]any{"id": 7})
	if !strings.Contains(msg, "no such job") || !strings.HasSuffix(msg, `job 2 killed by SIGKILL 0:01 make lint (finished; job_status {"id":2} for its output)`) {
		t.Errorf("error with note = %q", msg)
	}
	msg = fails(t, cs, toolStatus, map[string]any{"id": 0, "lines": "x"})
	if strings.Contains(msg, "finished") {
		t.Errorf("note repeated on error: %q", msg)
	}

	// A report of the finished job itself counts as looking.
	ok(t, cs, toolBackground, map[string]any{"command": "true"})
	fc.end(3, model.Exit{})
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": 3}); strings.Contains(text, "(finished;") {
		t.Errorf("own report noted as well: %q", text)
	}
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": 0}); strings.Contains(text, "finished") {
		t.Errorf("job 3 noted after its own report: %q", text)
	}

	// Another client session has not looked at anything yet.
	other := connect2(t, cs, fc)
	_, text = ok(t, other, toolStatus, map[string]any{"id": 0})
	for _, id := range []string{`{"id":1}`, `{"id":2}`, `{"id":3}`} {
		if !strings.Contains(text, id) {
			t.Errorf("second session: no note for %s in %q", id, text)
		}
	}
}

// connect2 connects a second client to a fresh server over the same core:
// sessions are independent whatever server they reach.
func connect2(t *testing.T, _ *mcp.ClientSession, fc *fakeCore) *mcp.ClientSession {
	return connect(t, fc, nil)
}

func TestSessionsSeparate(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	s := newServer(fc, options{})
	a := connectServer(t, s, nil)
	b := connectServer(t, s, nil)
	ok(t, a, toolBackground, map[string]any{"command": "x"})
	fc.end(0, model.Exit{Code: 2})
	_, ta := ok(t, a, toolStatus, map[string]any{"id": 0})
	_, tb := ok(t, b, toolKill, map[string]any{"id": 0})
	_, tb2 := ok(t, b, toolStatus, map[string]any{})
	if strings.Contains(ta+tb+tb2, "(finished;") {
		t.Errorf("own report counted as a note: %q %q %q", ta, tb, tb2)
	}
	ok(t, b, toolBackground, map[string]any{"command": "y"})
	fc.end(1, model.Exit{})
	_, ta = ok(t, a, toolStatus, map[string]any{"id": 0})
	_, tb = ok(t, b, toolStatus, map[string]any{"id": 0})
	if !strings.Contains(ta, `{"id":1}`) || !strings.Contains(tb, `{"id":1}`) {
		t.Errorf("each session gets its own note: a=%q b=%q", ta, tb)
	}
	a.Close()
	waitFor(t, 5*time.Second, func() bool {
		s.forgetClosedSessions()
		s.notes.mu.Lock()
		defer s.notes.mu.Unlock()
		return len(s.notes.told) == 1
	})
}

// TestPlainOutput: escapes from job output, the command and a careless
// core never reach the client.
func TestPlainOutput(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	hostile := "\x1b[31mred\x1b[0m \x1b]0;title\x07 \x1b]52;c;Zm9v\x07 \x9b2J \xff\xfe bell\a \u202eevil"
	ok(t, cs, toolBackground, map[string]any{"command": "printf '\x1b[2J'\necho hi", "name": "x\x1by"})
	fc.print(0, model.StreamOut, hostile)
	fc.print(0, model.StreamErr, "\x1b[?1049h\x1b[Hfull screen")
	fc.end(0, model.Exit{Code: 0})
	res, text := ok(t, cs, toolStatus, map[string]any{"id": 0}) // checkPlain ran in call
	var r Report
	structured(t, res, &r)
	if len(r.Lines) != 2 || !strings.HasPrefix(r.Lines[0].Text, "red ") || r.Lines[1].Text != "full screen" {
		t.Errorf("lines = %+v", r.Lines)
	}
	if strings.Contains(text, "title") || strings.Contains(text, "Zm9v") {
		t.Errorf("OSC payload leaked into text: %q", text)
	}
	if !strings.Contains(r.Command, "\n") {
		t.Errorf("command lost its newline: %q", r.Command)
	}
	// Negative control: the checker does catch an escape.
	if plainOK("a\x1b[31mb") || plainOK("\xff") || !plainOK("a\tb\nc ␛") {
		t.Error("plainOK is broken")
	}
}

func TestProgressWhileWaiting(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{blockWait: true}
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	cs := connect(t, fc, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		got = append(got, req.Params)
		mu.Unlock()
	}})
	ok(t, cs, toolBackground, map[string]any{"command": "server"})
	params := &mcp.CallToolParams{Name: toolStatus, Arguments: map[string]any{"id": 0, "wait": 0.3, "until": "ready"}}
	params.SetProgressToken("p1")
	res, err := cs.CallTool(t.Context(), params)
	if err != nil || res.IsError {
		t.Fatalf("wait: %v %s", err, textOf(res))
	}
	waitFor(t, 5*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return len(got) > 0 })
	mu.Lock()
	p := got[0]
	mu.Unlock()
	if p.ProgressToken != "p1" || p.Total != 0.3 || !strings.Contains(p.Message, `waiting`) || !strings.Contains(p.Message, `"ready"`) {
		t.Errorf("progress = %+v", p)
	}
	// Negative control: a call without a token gets no progress (every
	// notification carries the first call's token; late ones may still
	// arrive after its result).
	ok(t, cs, toolStatus, map[string]any{"id": 0, "wait": 0.2})
	time.Sleep(50 * time.Millisecond) // let a stray notification arrive, if any
	mu.Lock()
	defer mu.Unlock()
	for _, p := range got {
		if p.ProgressToken != "p1" {
			t.Errorf("progress for a call without a token: %+v", p)
		}
	}
}

func TestPanicIsToolError(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{panicOn: "boom"}
	cs := connect(t, fc, nil)
	msg := fails(t, cs, toolBackground, map[string]any{"command": "boom"})
	if !strings.Contains(msg, "internal error") {
		t.Errorf("panic message = %q", msg)
	}
	ok(t, cs, toolBackground, map[string]any{"command": "fine"})
}

// waitFor polls cond until it holds or d passes.
func waitFor(t *testing.T, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %v", d)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
