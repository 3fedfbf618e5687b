package serve

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

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

	// A client that connects later is told only of the jobs that finish
	// after it came, not of the whole history, and a
	// wait on any job does not end at once on an old one.
	other := connect(t, fc, nil) // a second client, of its own server over the same core
	if _, text := ok(t, other, toolStatus, map[string]any{"id": 0}); strings.Contains(text, "(finished;") {
		t.Errorf("a new session is noted the jobs that finished before it came:\n%s", text)
	}
	if _, text := ok(t, other, toolStatus, map[string]any{"wait": 0.2}); !strings.HasPrefix(text, "wait: timed out") {
		t.Errorf("a new session's wait on any job ended on an old job:\n%s", text)
	}
	ok(t, cs, toolBackground, map[string]any{"command": "make docs"})
	fc.end(4, model.Exit{Code: 2})
	note4 := `job 4 exited 2 0:01 make docs (finished; job_status {"id":4} for its output)`
	for i, c := range []*mcp.ClientSession{other, cs} {
		if _, text := ok(t, c, toolStatus, map[string]any{"id": 0}); !strings.HasSuffix(text, "\n\n"+note4) {
			t.Errorf("session %d: no note of the job that finished after it came:\n%s", i, text)
		}
	}
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
	bg, _ := ok(t, cs, toolBackground, map[string]any{"command": "printf '\x1b[2J'\necho hi", "name": "x\x1by"})
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
	var started Report
	structured(t, bg, &started)
	if !strings.Contains(started.Command, "\n") || strings.ContainsRune(started.Command, 0x1b) {
		t.Errorf("background's command lost its newline or kept an escape: %q", started.Command)
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
