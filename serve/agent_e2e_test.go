package serve

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// These end-to-end tests run the agent's loops against the real binary:
// grep of a long test run, a job whose lines are too long for any result,
// a wait on any job, the kill report after a full read.

// testRunCommand prints 3000 lines, five of them failures.
const testRunCommand = `for i in $(seq 1 3000); do case $i in 400|1200|1201|2500|2999) echo "--- FAIL: Test$i (0.00s)";; *) echo "ok $i";; esac; done`

func TestEndToEndGrep(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	ok(t, cs, toolBackground, map[string]any{"command": testRunCommand, "name": "tests", "wait": 60})
	res, text := ok(t, cs, toolStatus, map[string]any{"id": "tests", "grep": "FAIL"})
	// The ring keeps 2000 lines: 4 of the 5 failures are still held.
	for _, want := range []string{`grep "FAIL": 4 matching lines`, "1200: > --- FAIL: Test1200", "1201: > --- FAIL: Test1201", "2999: > --- FAIL: Test2999", "[… 1000 lines dropped]"} {
		if !strings.Contains(text, want) {
			t.Errorf("grep result lacks %q:\n%s", want, text)
		}
	}
	if len(text) > 600 {
		t.Errorf("grep result is %d bytes; it should be a few hundred:\n%s", len(text), text)
	}
	var r Report
	structured(t, res, &r)
	if r.Matches == nil || *r.Matches != 4 || len(r.Lines) != 4 {
		t.Errorf("structured: %d matches, %d lines", r.Matches, len(r.Lines))
	}
	// With context: the lines around each match, marked as context.
	_, text = ok(t, cs, toolStatus, map[string]any{"id": "tests", "grep": "FAIL", "context": 1, "lines": 1})
	if !strings.Contains(text, "2998- > ok 2998\n2999: > --- FAIL: Test2999 (0.00s)\n3000- > ok 3000") || !strings.Contains(text, `job_status {"id":0,"grep":"FAIL","context":1,"since":1000,"head":3}`) {
		t.Errorf("grep with context:\n%s", text)
	}
}

func TestEndToEndLongLines(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	// 60 lines of 12,000 characters (minified JS, base64, JSON logs).
	command := `for i in $(seq 1 60); do printf 'L%02d' $i; head -c 11994 /dev/zero | tr '\0' x; printf '%02dE\n' $i; done`
	res, text := ok(t, cs, toolBackground, map[string]any{"command": command, "wait": 30})
	checkBudget(t, res, text, model.DefaultResultBytes)
	if !strings.Contains(text, "\n> L60xxx") || !strings.Contains(text, "xxx60E\n") || !strings.Contains(text, "x [… 10.7 KiB cut] x") {
		t.Errorf("the newest line keeps its head and tail around the cut:\n%.300s", text)
	}
	// The calls given read the lines that were left out, each result
	// within budget too, down to the first line.
	for range 10 {
		m := regexp.MustCompile(`\[… \d+ lines not shown \(earlier\): (job_status \{[^]]*\})\]`).FindStringSubmatch(text)
		if m == nil {
			break
		}
		var args map[string]any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(m[1], "job_status ")), &args); err != nil {
			t.Fatal(err)
		}
		res, text = ok(t, cs, toolStatus, args)
		checkBudget(t, res, text, model.DefaultResultBytes)
	}
	if !strings.Contains(text, "\n> L01xxx") || strings.Contains(text, "not shown") {
		t.Errorf("the calls do not reach the oldest line:\n%.300s", text)
	}
	// A bigger budget shows more.
	res, text = ok(t, cs, toolStatus, map[string]any{"id": 0, "lines": 60, "max_bytes": 200000})
	checkBudget(t, res, text, 200000)
}

// checkBudget asserts a result's text and structured content fit budget
// and its structured content holds the same lines as the text, no more.
func checkBudget(t *testing.T, res *mcp.CallToolResult, text string, budget int) {
	t.Helper()
	checkResultBudget(t, "a read", res, budget)
	var r Report
	structured(t, res, &r)
	for _, l := range r.Lines {
		if !strings.Contains(text, l.Text) {
			t.Errorf("structured line %d is not in the text", l.Seq)
		}
	}
	// Each form has the whole budget: the text, the smaller per line,
	// shows at least the lines of the JSON.
	if n := strings.Count(text, "\n> "); n < len(r.Lines) {
		t.Errorf("text shows %d lines, structured content %d", n, len(r.Lines))
	}
}

func TestEndToEndWaitAny(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	ok(t, cs, toolBackground, map[string]any{"command": "sleep 30", "name": "server"})
	ok(t, cs, toolBackground, map[string]any{"command": "sleep 1; echo done; exit 2", "name": "build"})
	start := time.Now()
	res, text := ok(t, cs, toolStatus, map[string]any{"wait": 30})
	var l List
	structured(t, res, &l)
	if l.Wait == nil || l.Wait.Job == nil || *l.Wait.Job != 1 || !strings.HasPrefix(text, "wait: job 1 (build) ended after") || time.Since(start) > 10*time.Second {
		t.Fatalf("any-job wait:\n%s\n%+v", text, l.Wait)
	}
	if !strings.Contains(text, "\njob 0 (server) running") || !strings.Contains(text, "\njob 1 (build) exited 2") || len(l.Jobs) != 2 {
		t.Errorf("the list follows the note:\n%s", text)
	}
	// With until: a line of any job.
	ok(t, cs, toolBackground, map[string]any{"command": "sleep 1.5; echo GET / 200; sleep 30", "name": "web"})
	_, text = ok(t, cs, toolStatus, map[string]any{"wait": 30, "until": "GET /"})
	if !strings.HasPrefix(text, "wait: job 2 (web) matched line 1 after") {
		t.Fatalf("any-job until:\n%s", text)
	}
	// Negative control: nothing ends, nothing matches.
	_, text = ok(t, cs, toolStatus, map[string]any{"wait": 0.5, "until": "never"})
	if !strings.HasPrefix(text, "wait: timed out after 500ms") {
		t.Errorf("timeout:\n%s", text)
	}
	ok(t, cs, toolKill, map[string]any{"id": 0, "grace": 0})
	ok(t, cs, toolKill, map[string]any{"id": 2, "grace": 0})
}

func TestEndToEndKillReport(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	ok(t, cs, toolBackground, map[string]any{"command": "seq 1 20; trap 'echo shutting down; exit 0' TERM; sleep 30 & wait", "name": "srv"})
	waitFor(t, 10*time.Second, func() bool {
		_, text := ok(t, cs, toolStatus, map[string]any{"id": "srv", "lines": 100})
		return strings.Contains(text, "> 20")
	})
	_, text := ok(t, cs, toolKill, map[string]any{"id": "srv"})
	// Everything before was read: only the header, the stop and the one
	// new line.
	if !strings.HasPrefix(text, "job 0 (srv) exited 0 ") || !strings.Contains(text, "\nstopped in ") || !strings.HasSuffix(text, "\n> shutting down") || strings.Contains(text, "> 20") {
		t.Errorf("kill report after a full read:\n%s", text)
	}
	if strings.Contains(text, "Terminated") {
		t.Errorf("the stop added a line the job did not print:\n%s", text)
	}
}

// TestToolsListSize: tools/list stays within 4 KB (6 KB with output
// schemas, --structured), so that listing the
// tools costs an agent little context on every turn.
func TestToolsListSize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		structured bool
		most       int
	}{{false, 4000}, {true, 6000}} {
		s := newServer(&fakeCore{}, options{structured: c.structured})
		cs := connectServer(t, s, nil)
		res, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("tools/list is %d bytes (structured %v)", len(b), c.structured)
		if len(b) > c.most {
			t.Errorf("tools/list is %d bytes (structured %v), over %d", len(b), c.structured, c.most)
		}
		if has := strings.Contains(string(b), `"outputSchema"`); has != c.structured {
			t.Errorf("tools/list has an output schema: %v, want %v", has, c.structured)
		}
	}
}
