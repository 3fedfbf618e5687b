//go:build linux

package jobs

import (
	"context"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testtimeout"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ports/portstest"
)

// init lets the test binary serve ports for these tests (before TestMain:
// a server is never a test run).
func init() { portstest.MaybeServe() }

// serveCommand is the command of a job that listens on addrs.
func serveCommand(t testing.TB, addrs ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return portstest.Command(exe, addrs...)
}

// listeningLine waits for the job's "listening <addr>" line and returns the
// address.
func listeningLine(t *testing.T, tb *Table, id model.JobID) netip.AddrPort {
	t.Helper()
	var ap netip.AddrPort
	waitFor(t, testtimeout.Scale(20*time.Second), "the job's listening line", func() bool {
		p, err := tb.Read(id, model.ReadRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range p.Lines {
			if a, ok := strings.CutPrefix(string(l.Text), "listening "); ok {
				ap = netip.MustParseAddrPort(strings.TrimSpace(a))
				return true
			}
		}
		return false
	})
	return ap
}

// portsEvent waits, by state events alone (never polling the snapshot),
// until job id's snapshot lists want ("" waits for no ports), and returns
// that snapshot and how long it took.
func portsEvent(t *testing.T, tb *Table, sub *Subscription, id model.JobID, want string) (model.Snapshot, time.Duration) {
	t.Helper()
	t0 := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), testtimeout.Scale(10*time.Second))
	defer cancel()
	for {
		s := snap(t, tb, id)
		if portsText(s.Ports) == want {
			return s, time.Since(t0)
		}
		for {
			evs, err := sub.Wait(ctx)
			if err != nil {
				t.Fatalf("no state event brought ports %q to job %d (it lists %q): %v", want, id, portsText(snap(t, tb, id).Ports), err)
			}
			if containsState(evs, id) {
				break
			}
		}
	}
}

func containsState(evs []model.Event, id model.JobID) bool {
	for _, ev := range evs {
		if ev.Kind == model.EventState && ev.Job == id {
			return true
		}
	}
	return false
}

// portsText is "127.0.0.1:80 [::]:81".
func portsText(ps []model.Port) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.String())
	}
	return strings.Join(s, " ")
}

// TestPortsInSnapshot: a job that listens shows its port in its snapshot
// within about two seconds (one scan a second), announced by a state
// event; the port is held by the server, not the leader; once killed, the
// job lists none.
func TestPortsInSnapshot(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	sub := tb.Subscribe()
	defer sub.Close()
	// A compound command, so that the leader is bash and the server its
	// child (one simple command would be the leader itself).
	r := start(t, tb, model.Spec{Command: serveCommand(t, "127.0.0.1:0") + "; exit $?", NoWait: true})
	ap := listeningLine(t, tb, r.Job.ID)
	s, took := portsEvent(t, tb, sub, r.Job.ID, ap.String())
	t.Logf("port %v in the snapshot %v after the server said it listens", ap, took)
	if s.Ports[0].PID == 0 || s.Ports[0].PID == s.PID {
		t.Errorf("port held by pid %d; want the server, not the leader %d", s.Ports[0].PID, s.PID)
	}
	if _, err := tb.Kill(t.Context(), r.Job.ID, model.KillOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := snap(t, tb, r.Job.ID); s.Ports != nil {
		t.Errorf("a killed job lists ports %v", s.Ports)
	}
}

// TestPortsOfLeftovers: a leader that exits at once, leaving its server
// behind, still has the server's port shown (the scan follows the
// supervisor's tree, and finds the supervisor again with the leader
// gone); a tree that forks and exits processes all the time keeps its
// port listed without a note.
func TestPortsOfLeftovers(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	sub := tb.Subscribe()
	defer sub.Close()
	r := start(t, tb, model.Spec{Command: "( " + serveCommand(t, "127.0.0.1:0") + " & ) ; exit 0", NoWait: true})
	ap := listeningLine(t, tb, r.Job.ID)
	s, _ := portsEvent(t, tb, sub, r.Job.ID, ap.String())
	if s.Exit == nil || s.Remaining == 0 {
		t.Errorf("want a leader that exited with the server left running: %+v", s)
	}
	j, err := tb.find(r.Job.ID)
	if err != nil {
		t.Fatal(err)
	}
	root := int(j.portInfo.root.Load())
	j.portInfo.root.Store(0)
	if got := tb.rootOf(j); got != root || root == 0 {
		t.Errorf("with the leader gone, the supervisor found is %d; want %d", got, root)
	}

	churn := start(t, tb, model.Spec{Command: serveCommand(t, "127.0.0.1:0") + ` &
		( while :; do for i in 1 2 3 4 5 6; do ( /bin/true & /bin/true ) & done; wait; done ) &
		wait`, NoWait: true})
	addr := listeningLine(t, tb, churn.Job.ID)
	portsEvent(t, tb, sub, churn.Job.ID, addr.String())
	for end := time.Now().Add(3 * portScanEvery); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		s := snap(t, tb, churn.Job.ID)
		if portsText(s.Ports) != addr.String() || len(s.Notes) > 0 {
			t.Fatalf("a churning tree lists %q (notes %q); want %v", portsText(s.Ports), s.Notes, addr)
		}
	}
}

// TestPortConflictNamesJob: a job that fails with "address already in use"
// names the job that holds the port (a server without jobdeck's
// environment markers: found by its ancestry), by the port in its line
// (Go's wording) or, when the line names none (Python's), by the port its
// command names.
func TestPortConflictNamesJob(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	sub := tb.Subscribe()
	defer sub.Close()
	// env -i: the server carries no markers, so only its ancestry ties it
	// to the job.
	web := start(t, tb, model.Spec{Name: "web", Command: "env -i " + serveCommand(t, "127.0.0.1:0"), NoWait: true})
	ap := listeningLine(t, tb, web.Job.ID)
	held, _ := portsEvent(t, tb, sub, web.Job.ID, ap.String())
	port := strconv.Itoa(int(ap.Port()))

	for _, c := range []struct{ cmd, line string }{
		{serveCommand(t, ap.String()), "bind: address already in use"},
		{"PORT=" + port + ` bash -c 'echo "OSError: [Errno 98] Address already in use" >&2; exit 1'`, "Errno 98"},
		// Node's shape: the port in the first line, "EADDRINUSE" again
		// in the last that says so.
		{`echo "Error: listen EADDRINUSE: address already in use 127.0.0.1:` + port + `" >&2
		echo "    at Server.setupListenHandle [as _listen2] (node:net:1908:16)" >&2
		echo "  code: 'EADDRINUSE'," >&2; echo "  port: ` + port + `" >&2; exit 1`, "in use 127.0.0.1:" + port},
	} {
		cmd := c.cmd
		r := start(t, tb, model.Spec{Command: cmd})
		r, err := tb.Status(t.Context(), r.Job.ID, model.StatusOptions{Wait: testtimeout.Scale(20 * time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		pc := r.Job.PortConflict
		if pc == nil || pc.Port != int(ap.Port()) || pc.Holder == nil || pc.Holder.Job == nil {
			t.Fatalf("%s\n%s\nconflict %+v; want port %s held by job %d", cmd, plainText(r), pc, port, web.Job.ID)
		}
		h := pc.Holder
		if *h.Job != web.Job.ID || h.JobName != "web" || h.Socket.PID != held.Ports[0].PID || h.Command != "jobs.test" ||
			h.OtherSession || h.UID != os.Getuid() {
			t.Errorf("holder %+v (job %d); want job %d (web), pid %d, jobs.test", h, *h.Job, web.Job.ID, held.Ports[0].PID)
		}
		if i := seqIndex(r.Page.Lines, pc.Seq); i < 0 || !strings.Contains(string(r.Page.Lines[i].Text), c.line) {
			t.Errorf("conflict line seq %d is not the report's line with %q: %q", pc.Seq, c.line, lineTexts(r.Page))
		}
	}
	// Negative control: a job that fails otherwise has no conflict.
	r := start(t, tb, model.Spec{Command: "echo 'no such file' >&2; exit 1"})
	if r, _ = tb.Status(t.Context(), r.Job.ID, model.StatusOptions{Wait: testtimeout.Scale(20 * time.Second)}); r.Job.PortConflict != nil {
		t.Errorf("a plain failure has conflict %+v", r.Job.PortConflict)
	}
}

// seqIndex is the index of the line with seq, or -1.
func seqIndex(lines []model.Line, seq uint64) int {
	for i, l := range lines {
		if l.Seq == seq {
			return i
		}
	}
	return -1
}

// TestPortConflictOtherHolders: a port held by this process (no job) and
// one held by a process of another jobdeck session are named as such.
func TestPortConflictOtherHolders(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	own, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	other := exec.Command(exe)
	other.Env = append(os.Environ(), portstest.Env+"=127.0.0.1:0", "JOBDECK_SESSION=another-session", "JOBDECK_JOB=4")
	other.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := other.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() }) // the process this test started
	line := make([]byte, 64)
	n, err := out.Read(line)
	if err != nil {
		t.Fatal(err)
	}
	otherAddr := strings.TrimSpace(strings.TrimPrefix(string(line[:n]), "listening "))

	for _, c := range []struct {
		addr         string
		pid          int
		otherSession bool
	}{
		{own.Addr().String(), os.Getpid(), false},
		{otherAddr, other.Process.Pid, true},
	} {
		r := start(t, tb, model.Spec{Command: serveCommand(t, c.addr)})
		r, err := tb.Status(t.Context(), r.Job.ID, model.StatusOptions{Wait: testtimeout.Scale(20 * time.Second)})
		if err != nil {
			t.Fatal(err)
		}
		pc := r.Job.PortConflict
		if pc == nil || pc.Holder == nil {
			t.Fatalf("%s: conflict %+v; want a holder\n%s", c.addr, pc, plainText(r))
		}
		if h := pc.Holder; h.Job != nil || h.Socket.PID != c.pid || h.OtherSession != c.otherSession || h.Command != "jobs.test" {
			t.Errorf("%s: holder %+v; want pid %d, no job, another session: %v", c.addr, h, c.pid, c.otherSession)
		}
	}
}
