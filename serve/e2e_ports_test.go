//go:build linux

package serve

import (
	"net"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/ports/portstest"
)

// init lets the test binary serve ports for these tests' jobs (before
// TestMain: a server is never a test run).
func init() { portstest.MaybeServe() }

// TestEndToEndPorts drives the real binary: a job's report says where it
// listens; a second job that cannot bind that port fails, and its report
// names the first job as the holder (and how to free the port); job_kill
// with restart gives the first job a new run that listens on the same
// port again.
func TestEndToEndPorts(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // free again: the first job takes it
	rec := &recorder{}
	var stderr recorder
	cs, _ := startServe(t, rec, &stderr)
	mark := marker(t)
	listening := "\nlistening: " + addr + "\n"

	ok(t, cs, toolBackground, map[string]any{"command": "export " + mark + "; " + portstest.Command(exe, addr), "name": "web"})
	var last string
	waitFor(t, 15*time.Second, func() bool {
		_, last = ok(t, cs, toolStatus, map[string]any{"id": "web"})
		return strings.Contains(last, listening)
	})

	_, text := ok(t, cs, toolBackground, map[string]any{"command": "export " + mark + "; " + portstest.Command(exe, addr) + " # the same port again", "name": "web2"})
	if !strings.Contains(text, "address already in use") {
		// The start report came before the failure: read it.
		waitFor(t, 15*time.Second, func() bool {
			_, text = ok(t, cs, toolStatus, map[string]any{"id": "web2"})
			return strings.Contains(text, " exited 1 ")
		})
	}
	_, text = ok(t, cs, toolStatus, map[string]any{"id": "web2"})
	held := regexp.MustCompile(`\nport \d+ was already in use \(line \d+\), held by job 0 \(web\): pid \d+ \S+; job_kill \{"id":0\} frees it\n`)
	if !held.MatchString(text) {
		t.Fatalf("the failure report should name job 0 (web) as the holder:\n%s", text)
	}

	_, text = ok(t, cs, toolKill, map[string]any{"id": "web", "restart": true})
	if !strings.HasPrefix(text, "restarted job 0 as job 2; the old run stopped in ") {
		t.Fatalf("restart:\n%s", text)
	}
	waitFor(t, 15*time.Second, func() bool {
		_, text = ok(t, cs, toolStatus, map[string]any{"id": "web"})
		return strings.HasPrefix(text, "job 2 (web) running") && strings.Contains(text, listening)
	})
	ok(t, cs, toolKill, map[string]any{"id": "web"})
	checkNoLeftovers(t, mark)
}
