package words

import (
	"net/netip"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// TestStopNote: each kind of stop, attributed when someone other than
// self asked, and a stop that joined one already under way.
func TestStopNote(t *testing.T) {
	t.Parallel()
	now := t0.Add(1500 * time.Millisecond)
	for _, c := range []struct {
		st   *model.Stop
		want string
	}{
		{nil, ""},
		{&model.Stop{At: t0, Grace: 5 * time.Second, TermSent: 1}, "stopping: SIGTERM to 1 process 1.5s ago; SIGKILL follows after the 5s grace"},
		{&model.Stop{At: t0, TermSent: 0}, "stopping: SIGKILL at once, 1.5s ago"},
		{&model.Stop{At: t0, By: "jobdeck"}, "stopping (asked by jobdeck): SIGKILL at once, 1.5s ago"},
		{&model.Stop{At: t0, Grace: 0, KillSent: 2, Done: t0.Add(10 * time.Millisecond)}, "stopped in 10ms: SIGKILL to 2 processes at once"},
		{&model.Stop{At: t0, Grace: time.Second, TermSent: 2, Done: t0.Add(10 * time.Millisecond), By: "me"}, "stopped in 10ms: SIGTERM to 2 processes; no SIGKILL needed"},
		{&model.Stop{At: t0, Grace: time.Second, TermSent: 2, Done: t0.Add(10 * time.Millisecond), By: "jobdeck"}, "stopped in 10ms (asked by jobdeck): SIGTERM to 2 processes; no SIGKILL needed"},
		// A name is made plain: its escapes never reach a reader.
		{&model.Stop{At: t0, By: "\x1b[31mcodex\x1b[0m"}, "stopping (asked by codex): SIGKILL at once, 1.5s ago"},
		// A second client cut the grace short: SIGTERM came first, and
		// the SIGKILL was theirs, not "SIGKILL at once".
		{&model.Stop{At: t0, Grace: 0, TermSent: 1, KillSent: 3, Done: t0.Add(520 * time.Millisecond), By: "me", Hastened: "agentb"},
			"stopped in 520ms: SIGTERM to 1 process; agentb cut the grace to 0s; SIGKILL was needed for 3 after the 0s grace"},
	} {
		if got := StopNote(c.st, "me", now, ""); got != c.want {
			t.Errorf("StopNote(%+v) = %q, want %q", c.st, got, c.want)
		}
	}
	// A stop that found the job stopping names who asked first, even a
	// client of the same name, and "another client" for a nameless one.
	joined := &model.Stop{At: t0, Grace: time.Second, TermSent: 1, Done: t0.Add(time.Second), By: "me"}
	if got, want := StopNote(joined, "me", now, "stopping"), "stopped in 1s (asked first by me; this stop found it already stopping): SIGTERM to 1 process; no SIGKILL needed"; got != want {
		t.Errorf("a joined stop: %q, want %q", got, want)
	}
	joined.By = ""
	if got, want := StopNote(joined, "me", now, "stopped"), "stopped in 1s (asked first by another client; this stop found it already stopped): SIGTERM to 1 process; no SIGKILL needed"; got != want {
		t.Errorf("a joined stop of nobody named: %q, want %q", got, want)
	}
}

// TestSignalNote: a signal jobdeck did not send, directly or as bash's
// 128+N, and the OOM killer named only when the cgroup counted its kills
// (a SIGKILL alone is no proof of it).
func TestSignalNote(t *testing.T) {
	t.Parallel()
	for e, want := range map[model.Exit]string{
		{Signal: 9}:  "note: this SIGKILL was not sent by jobdeck",
		{Signal: 2}:  "note: this SIGINT was not sent by jobdeck",
		{Signal: 15}: "note: this SIGTERM was not sent by jobdeck",
		{Code: 137}:  "note: exit status 137 usually means a process died of SIGKILL, not sent by jobdeck",
		{Code: 143}:  "note: exit status 143 usually means a process died of SIGTERM, not sent by jobdeck",
		{Code: 1}:    "",
		{Signal: 11}: "",
	} {
		if got := SignalNote(model.Snapshot{Exit: &e}); got != want {
			t.Errorf("SignalNote(%+v) = %q, want %q", e, got, want)
		}
	}
	oom := model.Snapshot{Exit: &model.Exit{Signal: 9}, OOMKills: 2}
	if got, want := SignalNote(oom), "note: this SIGKILL was not sent by jobdeck: the kernel's OOM killer killed 2 processes of the job (its cgroup's memory.events)"; got != want {
		t.Errorf("an OOM kill: %q, want %q", got, want)
	}
}

func port(addr string, n, pid int) model.Port {
	return model.Port{Addr: netip.MustParseAddr(addr), Port: n, PID: pid}
}

// TestPorts: the listening line and every kind of conflict, with
// hostile names made plain.
func TestPorts(t *testing.T) {
	t.Parallel()
	ports := []model.Port{port("127.0.0.1", 5173, 42), port("::1", 5173, 42), port("0.0.0.0", 24678, 43)}
	if got := Listening(ports); got != "listening: 127.0.0.1:5173, [::1]:5173, 0.0.0.0:24678" {
		t.Errorf("Listening = %q", got)
	}
	if Listening(nil) != "" {
		t.Error("Listening of no ports is not empty")
	}
	jid := model.JobID(0)
	for _, c := range []struct {
		c    *model.PortConflict
		want string
	}{
		{nil, ""},
		{&model.PortConflict{Seq: 3}, "a port was already in use (line 3); the output does not say which"},
		{&model.PortConflict{Port: 5173, Seq: 2}, "port 5173 was already in use (line 2); nothing listened on it when jobdeck looked: it may be free now"},
		{&model.PortConflict{Port: 5173, Seq: 2, Holder: &model.PortHolder{Socket: port("127.0.0.1", 5173, 42), Command: "node", Job: &jid, JobName: "web"}},
			"port 5173 was already in use (line 2), held by job 0 (web): pid 42 node"},
		{&model.PortConflict{Port: 5173, Holder: &model.PortHolder{Socket: port("127.0.0.1", 5173, 42), Command: "\x1b[31mnode\x1b[0m", Job: &jid, JobName: "w\x1b]0;t\x07eb"}},
			"port 5173 was already in use, held by job 0 (web): pid 42 node"},
		{&model.PortConflict{Port: 8080, Holder: &model.PortHolder{Socket: port("::", 8080, 77), Command: "python3", OtherSession: true}},
			"port 8080 was already in use, held by pid 77 python3, a job of another jobdeck session"},
		{&model.PortConflict{Port: 80, Holder: &model.PortHolder{Socket: port("0.0.0.0", 80, 0), UID: 33}},
			"port 80 was already in use, held by a process of uid 33"},
	} {
		if got := Conflict(c.c); got != c.want {
			t.Errorf("Conflict(%+v) = %q, want %q", c.c, got, c.want)
		}
	}
}
