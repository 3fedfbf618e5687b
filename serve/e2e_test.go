//go:build unix

package serve

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

func TestEndToEndStdio(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	var stderr recorder
	cs, cmd := startServe(t, rec, &stderr)
	mark := marker(t)

	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil || len(tools.Tools) != 3 {
		t.Fatalf("tools/list: %v %v", tools, err)
	}

	// A job printing numbered lines, then "ready" after 2 s.
	command := "export " + mark + "\nfor i in 1 2 3 4 5; do echo line $i; done; echo warn >&2; sleep 2; echo ready; sleep 100"
	res, text := ok(t, cs, toolBackground, map[string]any{"command": command, "name": "srv"})
	if !regexp.MustCompile(`^job 0 \(srv\) running `).MatchString(text) {
		t.Fatalf("background text = %q", text)
	}
	var r Report
	structured(t, res, &r)
	if r.ID != 0 || r.State != "running" || r.PID <= 0 {
		t.Fatalf("background structured = %+v", r)
	}

	// Read on with since until the five lines are in: no gap, no duplicate.
	var seqs []uint64
	var texts []string
	since := uint64(0)
	waitFor(t, 10*time.Second, func() bool {
		res, _ := ok(t, cs, toolStatus, map[string]any{"id": "SRV", "since": since})
		var r Report
		structured(t, res, &r)
		for _, l := range r.Lines {
			seqs = append(seqs, l.Seq)
			texts = append(texts, l.Stream+":"+l.Text)
		}
		since = r.Next
		return len(seqs) >= 6
	})
	for i, s := range seqs {
		if s != uint64(i+1) {
			t.Fatalf("seqs = %v, want 1, 2, 3 …", seqs)
		}
	}
	// stdout (a pty) and stderr (a pipe) are read apart: only each
	// stream's own order is kept.
	var outs []string
	errs := 0
	for _, l := range texts {
		if strings.HasPrefix(l, "out:") {
			outs = append(outs, l)
		} else if l == "err:warn" {
			errs++
		}
	}
	if strings.Join(outs, ",") != "out:line 1,out:line 2,out:line 3,out:line 4,out:line 5" || errs != 1 {
		t.Errorf("lines = %q", texts)
	}

	// wait+until returns when "ready" comes (about 2 s), not at the timeout.
	start := time.Now()
	res, text = ok(t, cs, toolStatus, map[string]any{"id": 0, "since": since, "wait": 30, "until": "^ready$"})
	took := time.Since(start)
	t.Logf("wait+until returned after %v (ready was due about 2 s after the start; timeout 30 s)", took.Round(10*time.Millisecond))
	r = Report{}
	structured(t, res, &r)
	if r.Wait == nil || r.Wait.Reason != "matched" || took > 15*time.Second {
		t.Fatalf("wait took %v: %+v\n%s", took, r.Wait, text)
	}
	if !hasLinePrefix(text, "wait: ") || !strings.Contains(text, "> ready") {
		t.Errorf("wait text = %q", text)
	}

	// A timeout says so.
	res, text = ok(t, cs, toolStatus, map[string]any{"id": 0, "wait": 0.3, "until": "never"})
	r = Report{}
	structured(t, res, &r)
	if r.Wait == nil || r.Wait.Reason != "timeout" || !strings.Contains(text, "timed out") {
		t.Errorf("timeout: %+v %q", r.Wait, text)
	}

	// Bad input against the real core is a tool error, not a protocol error.
	for _, args := range []map[string]any{{"id": 42}, {"id": 0, "since": 999999}, {"id": "nope"}} {
		fails(t, cs, toolStatus, args)
	}
	fails(t, cs, toolBackground, map[string]any{"command": "true", "cwd": filepath.Join(t.TempDir(), "missing")})

	// A second job that exits on its own (after background returned) is
	// noted once.
	ok(t, cs, toolBackground, map[string]any{"command": "sleep 1; exit 3"})
	waitFor(t, 10*time.Second, func() bool {
		_, text := ok(t, cs, toolStatus, map[string]any{"id": 0, "lines": 1})
		return strings.Contains(text, `job 1 exited 3`) && strings.Contains(text, `(finished; job_status {"id":1} for its output)`)
	})
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": 0, "lines": 1}); strings.Contains(text, "job 1 ") {
		t.Errorf("note repeated: %q", text)
	}

	// job_kill returns when the tree is empty, with the final report.
	res, text = ok(t, cs, toolKill, map[string]any{"id": 0, "grace": 1})
	r = Report{}
	structured(t, res, &r)
	if r.State != "exited" || r.StillRunning != 0 || (r.Signal == "" && r.ExitCode == nil) {
		t.Errorf("kill structured = %+v\n%s", r, text)
	}
	if len(testkit.EnvMarked(mark)) != 0 {
		t.Errorf("job_kill returned with processes of the job still running")
	}
	// A second kill returns the final report, with no line this client
	// was not shown; the output stays readable.
	if _, text := ok(t, cs, toolKill, map[string]any{"id": "srv"}); !strings.HasSuffix(text, "(no new output)") || strings.Contains(text, "> ") {
		t.Errorf("report after kill = %q", text)
	}
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": "srv"}); !strings.Contains(text, "> ready") {
		t.Errorf("status after kill = %q", text)
	}

	// EOF on stdin: exit 0, nothing left.
	cs.Close()
	if code := waitExit(t, cmd, 20*time.Second); code != 0 {
		t.Errorf("exit code %d after EOF, want 0; stderr: %s", code, stderr.bytes())
	}
	checkJSONRPC(t, rec.bytes())
	checkNoLeftovers(t, mark)
}

// TestEndToEndEOFStopsJobs: closing stdin (through the SDK's command
// transport) makes jobdeck stop every job, escaped daemons included, and
// exit 0.
func TestEndToEndEOFStopsJobs(t *testing.T) {
	t.Parallel()
	mark := marker(t)
	cmd := exec.Command(jobdeckBinary(t), "--serve", "--private", "--grace", "1s")
	cmd.Dir = t.TempDir()
	var stderr recorder
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "0"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 30 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil && cmd.Process != nil {
			cmd.Process.Kill()
		}
	})
	commands := []string{
		mark + " sleep 100",
		"export " + mark + "; trap '' TERM; sleep 100",             // ignores SIGTERM
		"export " + mark + "; (sleep 100 &) ; echo forked; exit 0", // leader exits, child stays
	}
	want := 3 // processes carrying the marker: one sleep per command
	if _, err := exec.LookPath("setsid"); err == nil {
		commands = append(commands, "export "+mark+"; (setsid sleep 100 &); sleep 100") // a setsid'd daemon
		want += 2
	} else {
		t.Log("setsid (util-linux) is not installed: no setsid'd daemon in this run")
	}
	for _, c := range commands {
		ok(t, cs, toolBackground, map[string]any{"command": c})
	}
	waitFor(t, 10*time.Second, func() bool { return len(testkit.EnvMarked(mark)) >= want })
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if cmd.ProcessState == nil {
		t.Fatal("jobdeck still running after the client closed")
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Fatalf("jobdeck did not exit on EOF; it was killed by %v", ws.Signal())
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d after EOF, want 0; stderr: %s", code, stderr.bytes())
	}
	checkNoLeftovers(t, mark)
}

// TestEndToEndHTTP: --serve --http on loopback serves the same tools over
// streamable HTTP.
func TestEndToEndHTTP(t *testing.T) {
	t.Parallel()
	mark := marker(t)
	token := "e2e-" + strings.Repeat("cd", 16)
	h := startHTTPServe(t, "", "JOBDECK_TOKEN="+token)
	cmd := h.cmd
	if !status401(t, h.url, "") {
		t.Error("a request without the token was not refused")
	}
	cs := dialToken(t, h.url, token)
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil || len(tools.Tools) != 3 {
		t.Fatalf("tools/list: %v %v", tools, err)
	}
	for _, tool := range tools.Tools {
		if tool.OutputSchema != nil {
			t.Errorf("%s declares an output schema without --structured", tool.Name)
		}
	}
	ok(t, cs, toolBackground, map[string]any{"command": "export " + mark + "; sleep 1; echo hello; sleep 100"})
	res, text := ok(t, cs, toolStatus, map[string]any{"id": 0, "since": 0, "wait": 20, "until": "hello"})
	if res.StructuredContent != nil || !strings.Contains(text, "\nwait: matched line 1 after ") {
		t.Errorf("wait over HTTP: want the text alone, with the wait's sentence: %v\n%s", res.StructuredContent, text)
	}
	fails(t, cs, toolKill, map[string]any{"id": 7})
	ok(t, cs, toolKill, map[string]any{"id": 0, "grace": 0})
	cs.Close()

	// SIGTERM to the jobdeck we started: it shuts down cleanly.
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd, 20*time.Second); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
	if b := h.stdout.bytes(); len(b) != 0 {
		t.Errorf("HTTP mode wrote to stdout: %q", b)
	}
	if err := h.stderr.bytes(); strings.Contains(string(err), token) || !strings.Contains(string(err), "JOBDECK_TOKEN") {
		t.Errorf("stderr shows the token, or does not say where it is:\n%s", err)
	}
	checkNoLeftovers(t, mark)
}

// TestEndToEndBadInput: the real core's refusals come back as tool errors
// that say what to do, and hostile output reaches the client as plain
// text.
func TestEndToEndBadInput(t *testing.T) {
	t.Parallel()
	rec := &recorder{}
	var stderr recorder
	cs, cmd := startServe(t, rec, &stderr)
	mark := marker(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}

	// Hostile output: escapes, OSC title and clipboard, invalid UTF-8.
	ok(t, cs, toolBackground, map[string]any{"name": "w", "tty": false,
		"command": "export " + mark + `; printf '\033[31mred\033[0m \033]0;title\007 \033]52;c;Zm9v\007 \377 end\n'; sleep 100`})
	var r Report
	waitFor(t, 10*time.Second, func() bool {
		res, _ := ok(t, cs, toolStatus, map[string]any{"id": 0}) // call checks plainness
		r = Report{}
		structured(t, res, &r)
		return len(r.Lines) > 0
	})
	if got := r.Lines[0].Text; !strings.HasPrefix(got, "red ") || strings.Contains(got, "title") || strings.Contains(got, "Zm9v") || !strings.HasSuffix(got, " end") {
		t.Errorf("hostile line = %q", got)
	}

	// A name held by a running job cannot be taken; of two finished jobs
	// of the same name, the name means the newer.
	if msg := fails(t, cs, toolBackground, map[string]any{"name": "W", "command": "true"}); !strings.Contains(msg, "belongs to running job 0") {
		t.Errorf("a running job's name was given again: %q", msg)
	}
	ok(t, cs, toolKill, map[string]any{"id": 0, "grace": 0})
	ok(t, cs, toolBackground, map[string]any{"name": "W", "command": "echo second"})
	waitFor(t, 10*time.Second, func() bool {
		_, text := ok(t, cs, toolStatus, map[string]any{"id": 1})
		return strings.Contains(text, "exited 0")
	})
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{toolStatus, map[string]any{"id": 0, "since": 1000}, "since"},
		{toolStatus, map[string]any{"id": 0, "wait": 1, "until": "("}, "regular expression"},
		{toolBackground, map[string]any{"command": "   "}, "empty"},
		{toolBackground, map[string]any{"command": strings.Repeat("x", 1<<20+1)}, "1 MiB"},
		{toolBackground, map[string]any{"command": "ls", "cwd": file}, "not a directory"},
		{toolBackground, map[string]any{"command": "ls", "cwd": "no/such/dir"}, "does not exist"},
		{toolBackground, map[string]any{"command": "ls", "name": "42"}, "number"},
		{toolKill, map[string]any{"id": 99}, "no job 99"},
	}
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": "w"}); !strings.HasPrefix(text, "job 1 (W) exited 0") {
		t.Errorf("w should mean the newest job named so, 1: %q", text)
	}
	for _, c := range cases {
		if msg := fails(t, cs, c.tool, c.args); !strings.Contains(msg, c.want) {
			t.Errorf("%s %v: %q does not say %q", c.tool, shortValue(must(json.Marshal(c.args))), msg, c.want)
		}
	}

	// The ninth running job is refused with the running ones named.
	for i := 2; i < 10; i++ { // jobs 2 to 9: eight running
		ok(t, cs, toolBackground, map[string]any{"command": fmt.Sprintf("export %s; sleep 100 # %d", mark, i)})
	}
	msg := fails(t, cs, toolBackground, map[string]any{"command": "export " + mark + "; sleep 100 # 10"})
	if !strings.Contains(msg, "job_kill") || !strings.Contains(msg, "job 9") {
		t.Errorf("ninth job: %q", msg)
	}
	// job_kill on a finished job returns its report, not an error.
	ok(t, cs, toolKill, map[string]any{"id": 9, "grace": 0})
	if _, text := ok(t, cs, toolKill, map[string]any{"id": 9}); !strings.HasPrefix(text, "job 9 killed by SIGKILL") {
		t.Errorf("second kill: %q", text)
	}

	cs.Close()
	if code := waitExit(t, cmd, 30*time.Second); code != 0 {
		t.Errorf("exit code %d after EOF, want 0; stderr: %s", code, stderr.bytes())
	}
	checkJSONRPC(t, rec.bytes())
	checkNoLeftovers(t, mark)
}
