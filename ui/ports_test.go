package ui

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// portsCore is a fake core of a small app: a dev server listening on two
// ports, an API restarted once (its old run killed, the new one listening
// again), and a second dev server that could not bind the first one's
// port, so its report names the holder.
func portsCore() *fakeCore {
	c := newFakeCore(fixedNow)
	lp := func(addr string, n, pid int) model.Port {
		return model.Port{Addr: netip.MustParseAddr(addr), Port: n, PID: pid}
	}
	web := c.add(model.Snapshot{Command: "npm run dev", Name: "web", Dir: "/home/dev/app", Owner: "console", State: model.StateRunning,
		Started: t0, PID: 4242, TTY: true, Cgroup: true,
		Ports: []model.Port{lp("127.0.0.1", 5173, 4250), lp("::1", 5173, 4250), lp("127.0.0.1", 24678, 4250)}}, 0)
	c.emit(web, model.StreamOut, "  VITE v5.0.0  ready in 312 ms", "  ➜  Local:   http://localhost:5173/")
	c.emit(web, model.StreamErr, "12:00:41 [vite] page reload src/App.tsx")

	old := c.add(model.Snapshot{Command: "go run ./cmd/api", Name: "api", Dir: "/home/dev/app", Owner: "console", State: model.StateExited,
		Started: t0.Add(5 * time.Second), Ended: t0.Add(50 * time.Second), PID: 4300, TTY: true, Exit: &model.Exit{Signal: 15}, Done: true,
		Stop: &model.Stop{At: t0.Add(49 * time.Second), Grace: 5 * time.Second, TermSent: 2, Done: t0.Add(50 * time.Second), By: "console"}}, 0)
	c.emit(old, model.StreamOut, "api listening on 127.0.0.1:8080")

	dup := c.add(model.Snapshot{Command: "npm run dev -- --port 5173 --strictPort", Dir: "/home/dev/app/docs", Owner: "claude-code",
		State: model.StateExited, Started: t0.Add(30 * time.Second), Ended: t0.Add(31 * time.Second), PID: 4400, TTY: true,
		Exit: &model.Exit{Code: 1}, Done: true}, 0)
	c.emit(dup, model.StreamErr, "error when starting dev server:", "Error: Port 5173 is already in use")
	holder := web
	c.update(dup, func(s *model.Snapshot) {
		s.PortConflict = &model.PortConflict{Port: 5173, Seq: 2, At: t0.Add(31 * time.Second), Holder: &model.PortHolder{
			Socket: lp("127.0.0.1", 5173, 4250), Command: "node", Job: &holder, JobName: "web"}}
	})

	prev := old
	api := c.add(model.Snapshot{Command: "go run ./cmd/api", Name: "api", Dir: "/home/dev/app", Owner: "console", State: model.StateRunning,
		Started: t0.Add(51 * time.Second), PID: 4500, TTY: true, RestartOf: &prev, Ports: []model.Port{lp("127.0.0.1", 8080, 4510)}}, 0)
	c.emit(api, model.StreamOut, "api listening on 127.0.0.1:8080")
	return c
}

// TestGoldenPorts: ports in the job list and in pane titles, the restarted
// API's new run in its old run's pane, at three sizes.
func TestGoldenPorts(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		name := fmt.Sprintf("view_%dx%d_ports", size[0], size[1])
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, portsCore(), size[0], size[1], Options{})
			s := h.screen()
			for _, want := range []string{"0 (web) :5173 :24", "job 0 (web) :5173 :24678 runn", "job 3 (api) :8080 running 0:24"} {
				if !strings.Contains(s, want) {
					t.Errorf("screen lacks %q", want)
				}
			}
			if strings.Contains(s, "job 1 (api)") {
				t.Error("the API's old run has a pane; its new run should stand in its place")
			}
			checkGolden(t, name+".golden", s)
		})
	}
}

// TestGoldenJobStatusDetails: /job-status shows pid, start time and who
// started the job, cgroup, directory, the whole command, listening
// sockets, and for a port conflict the job that holds the port, at three
// sizes.
func TestGoldenJobStatusDetails(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		for _, job := range []string{"web", "2"} {
			name := fmt.Sprintf("view_%dx%d_jobstatus_%s", size[0], size[1], job)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t, portsCore(), size[0], size[1], Options{})
				h.command("job-status " + job)
				s := h.screen()
				want := []string{"pid 4242 · started 12:00:00 by console · own cgroup", "dir: /home/dev/app", "command: npm run dev", "listening: 127.0.0.1:5173, [::1]:5173"}
				if job == "2" {
					want = []string{"started 12:00:30 by claude-code · no cgroup", "port 5173 was already in use (line 2), held by job 0 (web): pid 4250 node"}
				}
				for _, w := range want {
					if !strings.Contains(s, w) {
						t.Errorf("overlay lacks %q", w)
					}
				}
				checkGolden(t, name+".golden", s)
			})
		}
	}
}

// TestListKeepsPorts: a named job's row in the list keeps its ports
// whole (the command is cut first, down to listCmdMin cells); at 160
// columns they were cut ("0 (web) :5173…").
func TestListKeepsPorts(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 160, 200} {
		h := newHarness(t, portsCore(), w, 40, Options{})
		l := h.m.layout().list
		rows := strings.Split(h.screen(), "\n")[l.y : l.y+l.h]
		list := ""
		for _, r := range rows {
			list += string([]rune(r)[l.x:min(l.x+l.w, len([]rune(r)))]) + "\n"
		}
		for _, want := range []string{"0 (web) :5173 :24678 ", "3 (api) :8080 "} {
			if !strings.Contains(list, want) {
				t.Errorf("%d columns: the list cuts %q:\n%s", w, want, list)
			}
		}
	}
}
