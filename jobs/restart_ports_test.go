//go:build linux

package jobs

import (
	"net"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// TestRestartKeepsPort: a server restarted listens on its port again (the
// old run's tree, and with it the socket, is gone before the new run
// starts), and the new run's snapshot lists it.
func TestRestartKeepsPort(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // free again: the job takes it
	tb := newTable(t, Options{})
	sub := tb.Subscribe()
	defer sub.Close()
	old := start(t, tb, model.Spec{Command: serveCommand(t, addr), Name: "web", NoWait: true})
	portsEvent(t, tb, sub, old.Job.ID, addr)
	rep, err := tb.Restart(t.Context(), old.Job.ID, model.RestartOptions{NoWait: true})
	if err != nil {
		t.Fatal(err)
	}
	if s := snap(t, tb, old.Job.ID); s.Ports != nil {
		t.Errorf("the old run still lists %v", s.Ports)
	}
	s, took := portsEvent(t, tb, sub, rep.Job.ID, addr)
	t.Logf("the new run %d listens on %s again, %v after its start", s.ID, addr, took)
}
