package serve

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ports"
	"github.com/jobdeck/jobdeck/words"
)

// portLines are the agent's lines about a job's ports, for its report:
// "listening: 127.0.0.1:5173, [::1]:5173" while its tree listens, and for
// a line that said a port was already in use, which port and who holds it
// (words.Conflict), with the call that frees it when a job of this session
// does ("port 5173 was already in use, held by job 0 (web): pid 4250
// node; job_kill {"id":0} frees it"). None when there is nothing to say.
func portLines(s model.Snapshot) []string {
	var out []string
	if l := words.Listening(s.Ports); l != "" {
		out = append(out, l)
	}
	if c := s.PortConflict; c != nil {
		out = append(out, conflictLine(*c))
	}
	return out
}

// conflictLine is words.Conflict with, when a job of this session holds
// the port, the call that frees it: `; job_kill {"id":0} frees it`.
func conflictLine(c model.PortConflict) string {
	line := words.Conflict(&c)
	if h := c.Holder; h != nil && h.Job != nil {
		line += `; job_kill {"id":` + h.Job.String() + `} frees it`
	}
	return line
}

// listenFailure words why the HTTP server could not listen on addr: for
// an address in use, which port and who holds it (ports.Holders, worded
// as a job's port conflict is) and what to do; else the error as it is.
func listenFailure(addr string, err error) error {
	_, p, _ := net.SplitHostPort(addr)
	port, perr := strconv.Atoi(p)
	if !errors.Is(err, syscall.EADDRINUSE) || perr != nil || port <= 0 {
		return fmt.Errorf("serve http: %w", err)
	}
	c := model.PortConflict{Port: port, At: time.Now()}
	if hs, _ := ports.Holders(port); len(hs) > 0 {
		c.Holder = &hs[0]
	}
	return fmt.Errorf("serve http on %s: %s; give --http another port, or stop what holds it", addr, conflictLine(c))
}
