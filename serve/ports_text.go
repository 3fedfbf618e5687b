package serve

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ports"
)

// portLines are the agent's lines about a job's ports, for its report:
// "listening: 127.0.0.1:5173, [::1]:5173" while its tree listens, and for
// a line that said a port was already in use, which port and who holds it
// ("port 5173 already in use, held by job 0 (web): pid 4250 node;
// job_kill {"id":0} frees it"). None when there is nothing to say.
func portLines(s model.Snapshot) []string {
	var out []string
	if len(s.Ports) > 0 {
		addrs := make([]string, len(s.Ports))
		for i, p := range s.Ports {
			addrs[i] = p.String()
		}
		out = append(out, "listening: "+strings.Join(addrs, ", "))
	}
	if c := s.PortConflict; c != nil {
		out = append(out, conflictLine(*c))
	}
	return out
}

// conflictLine words a port conflict for the agent.
func conflictLine(c model.PortConflict) string {
	at := ""
	if c.Seq > 0 {
		at = " (line " + strconv.FormatUint(c.Seq, 10) + ")"
	}
	switch {
	case c.Port == 0:
		return "a port was already in use" + at + "; the output does not say which"
	case c.Holder == nil:
		return "port " + strconv.Itoa(c.Port) + " already in use" + at + "; nothing listened on it when jobdeck looked: it may be free now"
	}
	h := *c.Holder
	proc := "a process of uid " + strconv.Itoa(h.UID)
	if h.Socket.PID != 0 {
		proc = "pid " + strconv.Itoa(h.Socket.PID)
		if h.Command != "" {
			proc += " " + plainString(model.OneLine(h.Command, 16))
		}
	}
	line := "port " + strconv.Itoa(c.Port) + " already in use" + at + ", held by "
	switch {
	case h.Job != nil:
		label := h.Job.String()
		if h.JobName != "" {
			label += " (" + plainString(model.OneLine(h.JobName, model.MaxNameBytes)) + ")"
		}
		return line + "job " + label + ": " + proc + `; job_kill {"id":` + h.Job.String() + `} frees it`
	case h.OtherSession:
		return line + proc + ", a job of another jobdeck session"
	}
	return line + proc
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
