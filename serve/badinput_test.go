package serve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

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

// TestWholeFloats: a whole number written as a float (5.0, 1e1) is a whole
// number for every integer argument; 5.5 is refused in jobdeck's words.
func TestWholeFloats(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	// Raw JSON: encoding/json writes the float 5.0 as 5.
	ok(t, cs, toolBackground, json.RawMessage(`{"command": "a", "lines": 5.0}`))
	for i := range 9 {
		fc.print(0, model.StreamOut, "line "+strconv.Itoa(i+1))
	}
	res, _ := ok(t, cs, toolStatus, json.RawMessage(`{"id": 0, "lines": 5.0, "since": 2.0, "max_bytes": 1.024e3}`))
	var r Report
	structured(t, res, &r)
	if len(r.Lines) != 5 || r.Lines[0].Seq != 5 {
		t.Errorf("lines 5.0 since 2.0: %+v", r.Lines)
	}
	_, text := ok(t, cs, toolStatus, json.RawMessage(`{"id": 0, "head": 2e0}`))
	if !strings.Contains(text, "> line 2\n[…") {
		t.Errorf("head 2e0:\n%s", text)
	}
	msg := fails(t, cs, toolStatus, json.RawMessage(`{"id": 0, "lines": 5.5}`))
	if !strings.Contains(msg, `"lines" must be a whole number from 1 to 2000, not 5.5`) || strings.Contains(msg, "Go value") {
		t.Errorf("lines 5.5: %q", msg)
	}
}
