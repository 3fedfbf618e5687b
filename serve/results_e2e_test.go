//go:build unix

package serve

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hugeCommand is a command of almost 1 MiB (the most a start takes) that
// runs rest: its text is "é<" over and over, 3 bytes that take 8 in JSON.
func hugeCommand(rest string) string {
	pad := strings.Repeat("é<", (model.MaxCommandBytes-len(rest)-16)/3)
	return ": '" + pad + "'; " + rest
}

// checkCutCommand asserts that a structured command is cut to at most max
// characters (and "…") and says the whole command's length.
func checkCutCommand(t *testing.T, what, got string, bytes, max int, cmd string) {
	t.Helper()
	if n := utf8.RuneCountInString(got); n > max+1 || !strings.HasSuffix(got, "…") || !strings.HasPrefix(cmd, strings.TrimSuffix(got, "…")) || bytes != len(cmd) {
		t.Errorf("%s: command of %d characters, command_bytes %d; want at most %d characters and …, and %d", what, n, bytes, max, len(cmd))
	}
}

// TestEndToEndStructuredBudget: with a job of a 1 MiB command in the
// list, a wait on any job and a finished-job note, every result, text and
// structured content, fits its budget, and a command is cut as the header
// cuts it, with its whole length said.
func TestEndToEndStructuredBudget(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	budget := model.DefaultResultBytes
	// Job 0 ends while the wait on any job below runs (the steps before
	// it take well under 5 s, even under -race on two busy cores: with
	// 1 s it had ended before the wait began, once in CI).
	ends := hugeCommand("echo a; sleep 5; exit 3")
	runs := hugeCommand("echo b; sleep 120")
	res, _ := ok(t, cs, toolBackground, map[string]any{"command": ends})
	checkResultBudget(t, "background", res, budget)
	var r Report
	structured(t, res, &r)
	checkCutCommand(t, "background", r.Command, r.CommandBytes, maxFullCommand, ends)
	res, _ = ok(t, cs, toolBackground, map[string]any{"command": runs})
	checkResultBudget(t, "background", res, budget)

	res, text := ok(t, cs, toolStatus, map[string]any{})
	checkResultBudget(t, "the list", res, budget)
	var l List
	structured(t, res, &l)
	if len(l.Jobs) != 2 || !strings.Contains(text, "\njob 1 running") {
		t.Fatalf("the list: %d jobs\n%.500s", len(l.Jobs), text)
	}
	for i, b := range l.Jobs {
		checkCutCommand(t, "the list", b.Command, b.CommandBytes, maxListCommand, []string{ends, runs}[i])
	}

	res, text = ok(t, cs, toolStatus, map[string]any{"wait": 30})
	checkResultBudget(t, "wait on any job", res, budget)
	if !strings.HasPrefix(text, "wait: job 0 ended") {
		t.Errorf("wait on any job:\n%.500s", text)
	}

	// A job that ends unseen is noted at the end of the next result.
	notes := hugeCommand("sleep 1; exit 4")
	ok(t, cs, toolBackground, map[string]any{"command": notes})
	res, text = ok(t, cs, toolStatus, map[string]any{"id": 1, "wait": 8, "until": "never"})
	checkResultBudget(t, "a note", res, budget)
	r = Report{}
	structured(t, res, &r)
	if len(r.Finished) != 1 || !strings.Contains(text, `(finished; job_status {"id":2} for its output)`) {
		t.Fatalf("no note of job 2 (%d):\n%.500s", len(r.Finished), text)
	}
	checkCutCommand(t, "a note", r.Finished[0].Command, r.Finished[0].CommandBytes, maxShortCommand, notes)
	ok(t, cs, toolKill, map[string]any{"id": 1, "grace": 0})
}

// TestEndToEndNotesSinceConnect: a new client of a session is told only
// of the jobs that finish after it came, not the whole finished-job
// history.
func TestEndToEndNotesSinceConnect(t *testing.T) {
	t.Parallel()
	dir, env := t.TempDir(), []string{"JOBDECK_SESSION_DIR=" + sessionDir(t)}
	first, cmd1 := startServeIn(t, &recorder{}, os.Stderr, dir, env, "--grace", "1s", "--linger", "0")
	for _, c := range []string{"exit 3", "exit 4"} {
		ok(t, first, toolBackground, map[string]any{"command": c, "wait": 30})
	}
	second, cmd2 := startServeIn(t, &recorder{}, os.Stderr, dir, env, "--grace", "1s")
	_, text := ok(t, second, toolStatus, map[string]any{"id": 0})
	if strings.Contains(text, "(finished;") {
		t.Errorf("a new client is noted the jobs that finished before it came:\n%s", text)
	}
	// Negative control: a job that ends after it came is noted.
	ok(t, first, toolBackground, map[string]any{"command": "sleep 0.5; exit 5", "wait": 30})
	_, text = ok(t, second, toolStatus, map[string]any{"id": 0})
	if !strings.Contains(text, `(finished; job_status {"id":2} for its output)`) || strings.Contains(text, `{"id":1}`) {
		t.Errorf("the new client's note:\n%s", text)
	}
	first.Close()
	second.Close()
	waitExit(t, cmd1, 30*time.Second)
	waitExit(t, cmd2, 30*time.Second)
}

// pageCall is the call of a result's hint matching re, decoded (nil: none).
func pageCall(t *testing.T, re *regexp.Regexp, text string) map[string]any {
	t.Helper()
	m := re.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(strings.TrimPrefix(m[1], "job_status ")), &args); err != nil {
		t.Fatal(err)
	}
	return args
}

var (
	moreHint    = regexp.MustCompile(`\[… \d+ lines more: (job_status \{[^]]*\})\]`)
	earlierHint = regexp.MustCompile(`\[… \d+ lines not shown \(earlier\): (job_status \{[^]]*\})\]`)
)

// readPages reads job 0 with args, then with each more hint, until there
// is none or it would read past stop; it returns how many times each seq
// was shown and the calls made.
func readPages(t *testing.T, cs *mcp.ClientSession, args map[string]any, stop float64) (map[uint64]int, []int) {
	t.Helper()
	seen := map[uint64]int{}
	var pages []int
	for args != nil && len(pages) < 100 {
		if since, _ := args["since"].(float64); since >= stop {
			break
		}
		res, text := ok(t, cs, toolStatus, args)
		checkResultBudget(t, "a page", res, model.DefaultResultBytes)
		// The pages are the text's: its calls read what it left out.
		shown := pagedLine.FindAllStringSubmatch(text, -1)
		for _, m := range shown {
			seq, _ := strconv.ParseUint(m[1], 10, 64)
			seen[seq]++
		}
		pages = append(pages, len(shown))
		args = pageCall(t, moreHint, text)
	}
	return seen, pages
}

// pagedLine is a line of TestEndToEndHeadPages's job in a text, its
// number in the first group.
var pagedLine = regexp.MustCompile(`(?m)^> L(\d{4}) `)

// TestEndToEndHeadPages: a head read within a byte budget shows the
// first lines of its range, and each hint reads the next range: every
// line once, in ceil(2000 / page) calls.
func TestEndToEndHeadPages(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	ok(t, cs, toolBackground, map[string]any{"command": `for i in $(seq 1 2000); do printf 'L%04d %0195d\n' $i 0; done`, "name": "pages", "wait": 60})
	seen, pages := readPages(t, cs, map[string]any{"id": 0, "head": 2000}, 2000)
	if len(seen) != 2000 || seen[1] != 1 || seen[2000] != 1 {
		t.Errorf("head pages showed %d of 2000 lines (line 1: %d times, 2000: %d times)", len(seen), seen[1], seen[2000])
	}
	for s, n := range seen {
		if n != 1 {
			t.Errorf("line %d shown %d times", s, n)
		}
	}
	page := slices.Min(pages[:max(len(pages)-1, 1)])
	if want := (2000 + page - 1) / page; len(pages) > want {
		t.Errorf("%d calls of %v lines; want %d", len(pages), pages, want)
	}
	// From a tail read: the earlier lines, each once, up to the tail.
	_, text := ok(t, cs, toolStatus, map[string]any{"id": 0})
	m := pagedLine.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no line in the tail read:\n%.300s", text)
	}
	first, _ := strconv.ParseUint(m[1], 10, 64)
	seen, pages = readPages(t, cs, pageCall(t, earlierHint, text), float64(first-1))
	if uint64(len(seen)) != first-1 || seen[1] != 1 || seen[first-1] != 1 {
		t.Errorf("the earlier pages showed %d of the %d lines before the tail", len(seen), first-1)
	}
	for s, n := range seen {
		if n != 1 || s >= first {
			t.Errorf("line %d shown %d times (the tail starts at %d)", s, n, first)
		}
	}
	t.Logf("pages: %v", pages)
}

// TestEndToEndGrepLongLine: a long matching line is cut to the line
// budget around its match, so the match shows.
func TestEndToEndGrepLongLine(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	// 20,000 bytes: the match in the middle, 8 KiB from either end (the
	// ring keeps 16 KiB of it, the result's line budget 1 KiB).
	ok(t, cs, toolBackground, map[string]any{"command": `head -c 8000 /dev/zero | tr '\0' a; printf 'ERROR: disk full'; head -c 12000 /dev/zero | tr '\0' z; echo; echo short ERROR line`, "wait": 30})
	res, text := ok(t, cs, toolStatus, map[string]any{"id": 0, "grep": "ERROR: disk"})
	var r Report
	structured(t, res, &r)
	if len(r.Lines) != 1 || !strings.Contains(r.Lines[0].Text, "ERROR: disk full") || !strings.Contains(text, "aaa [… ") || !strings.Contains(text, "ERROR: disk fullzzz") {
		t.Fatalf("the match is not in view:\n%s", text)
	}
	// 1 KiB of the line is kept, head and window; the rest is counted.
	if n := len(r.Lines[0].Text); n > 1100 || r.Lines[0].Cut != 20016-1024 {
		t.Errorf("a line of %d bytes with %d cut; want 1 KiB kept of 20016", n, r.Lines[0].Cut)
	}
	// Negative control: a line within the budget is whole, and a match
	// near the start keeps the middle cut.
	_, text = ok(t, cs, toolStatus, map[string]any{"id": 0, "grep": "short"})
	if !strings.Contains(text, "2: > short ERROR line") {
		t.Errorf("a short match:\n%s", text)
	}
}

// TestEndToEndGrepHeader: the grep header names the range searched (not
// the lines up to the last shown, nor lines the ring dropped), and "--"
// separates groups only with context.
func TestEndToEndGrepHeader(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	ok(t, cs, toolBackground, map[string]any{"command": testRunCommand, "wait": 60})
	// The ring holds lines 1001-3000, with 4 failures.
	for _, args := range []map[string]any{{"grep": "FAIL"}, {"grep": "FAIL", "head": 1}, {"grep": "FAIL", "since": 0}, {"grep": "FAIL", "lines": 1}} {
		args["id"] = 0
		_, text := ok(t, cs, toolStatus, args)
		if !strings.Contains(text, "\ngrep \"FAIL\": 4 matching lines in lines 1001-3000\n") || strings.Contains(text, "\n--\n") {
			t.Errorf("%v:\n%s", args, text)
		}
	}
	_, text := ok(t, cs, toolStatus, map[string]any{"id": 0, "grep": "FAIL", "since": 2000})
	if !strings.Contains(text, "\ngrep \"FAIL\": 2 matching lines in lines 2001-3000\n2500: > --- FAIL: Test2500 (0.00s)\n2999: > --- FAIL") {
		t.Errorf("since 2000:\n%s", text)
	}
	// With context, "--" between groups that do not touch.
	_, text = ok(t, cs, toolStatus, map[string]any{"id": 0, "grep": "FAIL", "context": 1})
	if !strings.Contains(text, "1202- > ok 1202\n--\n2499- > ok 2499\n") || strings.Count(text, "\n--\n") != 2 {
		t.Errorf("context 1:\n%s", text)
	}
}

// TestEndToEndTwoStops: two clients of one session (of one name) stop one
// job. The second's report says who asked first and that the job was
// already stopping; the first's report is its own stop.
func TestEndToEndTwoStops(t *testing.T) {
	t.Parallel()
	dir, env := t.TempDir(), []string{"JOBDECK_SESSION_DIR=" + sessionDir(t)}
	a, cmdA := startServeIn(t, &recorder{}, os.Stderr, dir, env, "--grace", "1s", "--linger", "0")
	b, cmdB := startServeIn(t, &recorder{}, os.Stderr, dir, env, "--grace", "1s")
	ok(t, a, toolBackground, map[string]any{"command": "trap '' TERM; echo up; sleep 60", "name": "stubborn"})
	first := make(chan string, 1)
	go func() {
		res, err := a.CallTool(t.Context(), &mcp.CallToolParams{Name: toolKill, Arguments: map[string]any{"id": "stubborn", "grace": 2}})
		if err != nil {
			first <- err.Error()
			return
		}
		first <- textOf(res)
	}()
	waitFor(t, 10*time.Second, func() bool {
		_, text := ok(t, b, toolStatus, map[string]any{"id": "stubborn"})
		return strings.Contains(text, "\nstopping")
	})
	_, second := ok(t, b, toolKill, map[string]any{"id": "stubborn"})
	if !strings.Contains(second, "(asked first by e2e; this stop found it already stopping)") {
		t.Errorf("the second stop's report:\n%s", second)
	}
	// (The second stop's grace, the job's 1 s, shortened the first's 2 s.)
	if text := <-first; !strings.Contains(text, "\nstopped in 1") || strings.Contains(text, "asked") {
		t.Errorf("the first stop's report:\n%s", text)
	}
	// A stop of the job once it is over says it was already stopped.
	if _, text := ok(t, b, toolKill, map[string]any{"id": "stubborn"}); !strings.Contains(text, "this stop found it already stopped)") {
		t.Errorf("a stop after the end:\n%s", text)
	}
	a.Close()
	b.Close()
	waitExit(t, cmdA, 30*time.Second)
	waitExit(t, cmdB, 30*time.Second)
}

// TestEndToEndKillDescribesGrace: job_kill's description states the
// grace in use (--grace, not always 5 s), in-process and through a
// session.
func TestEndToEndKillDescribesGrace(t *testing.T) {
	t.Parallel()
	env := []string{"JOBDECK_SESSION_DIR=" + sessionDir(t)}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--private", "--grace", "2s"}, "2s for the jobs you start here"},
		{[]string{"--grace", "1.5s", "--linger", "0"}, "1.5s for the jobs you start here"},
		{[]string{"--private", "--grace", "0"}, "0 (SIGKILL at once) for the jobs you start here"},
	} {
		cs, cmd := startServeIn(t, &recorder{}, os.Stderr, t.TempDir(), env, c.args...)
		tools, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range tools.Tools {
			if tool.Name == toolKill && !strings.Contains(tool.Description, c.want) {
				t.Errorf("%v: job_kill's description lacks %q: %s", c.args, c.want, tool.Description)
			}
		}
		cs.Close()
		waitExit(t, cmd, 30*time.Second)
	}
}

// TestEndToEndForeignKill: a SIGKILL jobdeck did not send is said to be
// foreign, and the OOM killer is named only when the job's cgroup counted
// its kills, never as a guess.
func TestEndToEndForeignKill(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	for _, command := range []string{`bash -c 'kill -KILL $$'`, `bash -c 'kill -KILL $$'; exit $?`} {
		_, text := ok(t, cs, toolBackground, map[string]any{"command": command, "wait": 10})
		if !strings.Contains(text, "SIGKILL, not sent by jobdeck") && !strings.Contains(text, "this SIGKILL was not sent by jobdeck") || strings.Contains(text, "OOM") {
			t.Errorf("%s:\n%s", command, text)
		}
	}
}

// TestEndToEndNameWithSpaces: background takes a name with spaces, as
// docs/agent-tools.md says, and id selects it without case.
func TestEndToEndNameWithSpaces(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	if _, text := ok(t, cs, toolBackground, map[string]any{"command": "echo hi", "name": "dev server", "wait": 10}); !strings.HasPrefix(text, "job 0 (dev server) exited 0") {
		t.Errorf("a name with a space:\n%s", text)
	}
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": "Dev Server"}); !strings.HasPrefix(text, "job 0 (dev server)") {
		t.Errorf("selected without case:\n%s", text)
	}
	if msg := fails(t, cs, toolBackground, map[string]any{"command": "echo hi", "name": "42"}); !strings.Contains(msg, model.NameRule) {
		t.Errorf("a number as a name: %s", msg)
	}
}
