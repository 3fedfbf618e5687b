//go:build linux

package jobs

import (
	"strconv"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testtimeout"
	"github.com/jobdeck/jobdeck/model"
)

// TestPortConflictRuntimes: the real words of Python's http.server and of
// Node, failing on a port a job holds, name that job. Each runtime is
// skipped where it is not installed.
func TestPortConflictRuntimes(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	sub := tb.Subscribe()
	defer sub.Close()
	web := start(t, tb, model.Spec{Name: "web", Command: serveCommand(t, "127.0.0.1:0"), NoWait: true})
	ap := listeningLine(t, tb, web.Job.ID)
	portsEvent(t, tb, sub, web.Job.ID, ap.String())
	port := strconv.Itoa(int(ap.Port()))
	for _, c := range []struct{ tool, cmd string }{
		{"python3", "python3 -m http.server " + port + " --bind 127.0.0.1"},
		{"node", `node -e "require('http').createServer().listen(` + port + `, '127.0.0.1')"`},
		{"node", `node -e "require('net').createServer().listen(` + port + `)"`},
	} {
		t.Run(c.tool, func(t *testing.T) {
			needTools(t, c.tool)
			r := start(t, tb, model.Spec{Command: c.cmd})
			r, err := tb.Status(t.Context(), r.Job.ID, model.StatusOptions{Wait: testtimeout.Scale(30 * time.Second)})
			if err != nil {
				t.Fatal(err)
			}
			pc := r.Job.PortConflict
			if pc == nil || pc.Port != int(ap.Port()) || pc.Holder == nil || pc.Holder.Job == nil || *pc.Holder.Job != web.Job.ID {
				t.Fatalf("conflict %+v; want port %s held by job %d\n%s", pc, port, web.Job.ID, plainText(r))
			}
		})
	}
}
