package present

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

func port(addr string, n, pid int) model.Port {
	return model.Port{Addr: netip.MustParseAddr(addr), Port: n, PID: pid}
}

// TestPortsWords: the tag of the list and titles and the title (the
// listening line and the conflicts are package words's).
func TestPortsWords(t *testing.T) {
	t.Parallel()
	web := model.Snapshot{ID: 0, Name: "web", Command: "npm run dev", State: model.StateRunning, Started: t0,
		Ports: []model.Port{port("127.0.0.1", 5173, 42), port("::1", 5173, 42), port("0.0.0.0", 24678, 43)}}
	if got := PortsTag(web.Ports); got != ":5173 :24678" {
		t.Errorf("PortsTag = %q", got)
	}
	many := []model.Port{port("::", 9, 1), port("::", 3000, 1), port("::", 3001, 1), port("::", 3002, 1), port("::", 3003, 1)}
	if got := PortsTag(many); got != ":9 :3000 :3001 +2" {
		t.Errorf("PortsTag of five = %q", got)
	}
	if got := Label(web); got != "0 (web) :5173 :24678" {
		t.Errorf("Label = %q", got)
	}
	if got := Title(web, t0.Add(75*time.Second)); got != "job 0 (web) :5173 :24678 running 1:15 npm run dev" {
		t.Errorf("Title = %q", got)
	}
	if Title(model.Snapshot{Command: "x", State: model.StateRunning}, t0) != "job 0 running 0:00 x" || PortsTag(nil) != "" {
		t.Error("a job without ports: no tag, the plain header")
	}
}

// TestDetails: pid, start time (with the date when not today) and who
// started it, the cgroup, a restart's old run, the directory, the whole
// command (each of its lines), ports and a conflict.
func TestDetails(t *testing.T) {
	t.Parallel()
	prev := model.JobID(1)
	s := model.Snapshot{ID: 3, Command: "cd web &&\n  npm run dev -- --port 5173 --host 127.0.0.1 --strictPort --clearScreen false --logLevel info",
		Dir: "/home/dev/app", Owner: "claude-code", State: model.StateRunning, PID: 4242, Started: t0, Cgroup: true, RestartOf: &prev,
		Ports: []model.Port{port("127.0.0.1", 5173, 4250)}}
	want := []string{
		"pid 4242 · started 12:00:00 by claude-code · own cgroup · restart of job 1",
		"dir: /home/dev/app",
		"command: cd web &&",
		"           npm run dev -- --port 5173 --host 127.0.0.1 --strictPort --clearScreen false --logLevel info",
		"listening: 127.0.0.1:5173",
	}
	if got := Details(s, t0.Add(time.Minute)); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Details:\n got %q\nwant %q", got, want)
	}
	failed := model.Snapshot{Command: "x", State: model.StateFailed, Dir: "/tmp"}
	if got := Details(failed, t0); strings.Join(got, "\n") != "dir: /tmp\ncommand: x" {
		t.Errorf("a job that never ran: %q", got)
	}
	if got := Details(model.Snapshot{Command: "x", PID: 1, Started: t0, State: model.StateExited}, t0.Add(48*time.Hour))[0]; got != "pid 1 · started Jan 1 12:00:00 · no cgroup" {
		t.Errorf("started on another day: %q", got)
	}
}
