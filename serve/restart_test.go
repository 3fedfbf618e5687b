package serve

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// TestKillRestart: job_kill with restart stops the job and starts its
// command again as a new job (same name and directory), returning the new
// job's report after how the old run ended; the old run is not noted
// again as finished; a job being stopped is refused with what to do.
func TestKillRestart(t *testing.T) {
	t.Parallel()
	fc := &fakeCore{}
	cs := connect(t, fc, nil)
	ok(t, cs, toolBackground, map[string]any{"command": "npm run dev", "name": "web"})
	res, text := ok(t, cs, toolKill, map[string]any{"id": "web", "restart": true})
	want := "restarted job 0 as job 1; the old run stopped in 1s: SIGTERM to 1 process; no SIGKILL needed\njob 1 (web) running 0:01 npm run dev"
	if !strings.HasPrefix(text, want) {
		t.Fatalf("restart text:\n%s\nwant it to start with:\n%s", text, want)
	}
	if strings.Contains(text, "finished; job_status") {
		t.Errorf("the old run is noted again as finished:\n%s", text)
	}
	var r Report
	structured(t, res, &r)
	if r.ID != 1 || r.Name != "web" || r.State != "running" {
		t.Errorf("structured: %+v", r)
	}
	if fc.lastSpec.Command != "npm run dev" || fc.lastSpec.Name != "web" || fc.lastSpec.Owner != "test" {
		t.Errorf("the new run's spec: %+v", fc.lastSpec)
	}

	// Each run names the other when read: the old one its restart, the
	// new one what it restarts (an agent waiting on the old run learns
	// where its job went).
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": 0}); !strings.Contains(text, `restarted as job 1 (job_status {"id":1} reads the new run)`) {
		t.Errorf("the old run's status does not name its restart:\n%s", text)
	}
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": 1}); !strings.Contains(text, "\nrestart of job 0\n") {
		t.Errorf("the new run's status does not name the run it restarts:\n%s", text)
	}

	// A finished job is just started again; no stop to tell.
	fc.end(1, model.Exit{})
	_, text = ok(t, cs, toolKill, map[string]any{"id": 1, "restart": true})
	if !strings.HasPrefix(text, "restarted job 1 as job 2\njob 2 (web) running") {
		t.Errorf("restart of a finished job:\n%s", text)
	}

	fc.mu.Lock()
	fc.jobs[2].snap.State, fc.jobs[2].snap.Stop = model.StateStopping, &model.Stop{By: "console"}
	fc.mu.Unlock()
	if msg := fails(t, cs, toolKill, map[string]any{"id": 2, "restart": true}); !strings.Contains(msg, "job 2 (web) is being stopped: restart it once it ended") {
		t.Errorf("restart of a job being stopped: %s", msg)
	}
}

// TestPortLines: a report says where the job listens and, for a port
// already in use, who holds it and how to free it.
func TestPortLines(t *testing.T) {
	t.Parallel()
	lp := func(a string, n, pid int) model.Port {
		return model.Port{Addr: netip.MustParseAddr(a), Port: n, PID: pid}
	}
	web := model.JobID(0)
	cases := []struct {
		s    model.Snapshot
		want []string
	}{
		{model.Snapshot{}, nil},
		{model.Snapshot{Ports: []model.Port{lp("127.0.0.1", 5173, 9), lp("::1", 5173, 9)}}, []string{"listening: 127.0.0.1:5173, [::1]:5173"}},
		{model.Snapshot{PortConflict: &model.PortConflict{Port: 5173, Seq: 4, Holder: &model.PortHolder{Socket: lp("127.0.0.1", 5173, 4250), Command: "node", Job: &web, JobName: "web"}}},
			[]string{`port 5173 was already in use (line 4), held by job 0 (web): pid 4250 node; job_kill {"id":0} frees it`}},
		{model.Snapshot{PortConflict: &model.PortConflict{Port: 8080, Holder: &model.PortHolder{Socket: lp("::", 8080, 77), Command: "python3", OtherSession: true}}},
			[]string{"port 8080 was already in use, held by pid 77 python3, a job of another jobdeck session"}},
		{model.Snapshot{PortConflict: &model.PortConflict{Port: 80, Holder: &model.PortHolder{Socket: lp("0.0.0.0", 80, 0), UID: 33}}},
			[]string{"port 80 was already in use, held by a process of uid 33"}},
		{model.Snapshot{PortConflict: &model.PortConflict{Port: 3000}}, []string{"port 3000 was already in use; nothing listened on it when jobdeck looked: it may be free now"}},
		{model.Snapshot{PortConflict: &model.PortConflict{Seq: 2}}, []string{"a port was already in use (line 2); the output does not say which"}},
	}
	for _, c := range cases {
		if got := portLines(c.s); strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("portLines(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
	// And they reach the report.
	s := model.Snapshot{ID: 0, Command: "npm run dev", State: model.StateRunning, Started: t0, Ports: []model.Port{lp("127.0.0.1", 5173, 9)}}
	if text := renderText(model.Report{Job: s}, view{}); !strings.Contains(text, "\nlistening: 127.0.0.1:5173\n") {
		t.Errorf("the report lacks the listening line:\n%s", text)
	}
}
