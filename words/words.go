package words

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
)

// plain is s without escape sequences, on one line, cut to max
// characters (0: no cut).
func plain(s string, max int) string {
	return model.OneLine(sanitize.Plain([]byte(s)), max)
}

// SignalNote says when the signal that ended the job did not come from
// jobdeck (the job itself, another process, or for SIGKILL the kernel's
// OOM killer, named only when the job's cgroup counted its kills:
// Snapshot.OOMKills). An exit status of 137 or 143 is only how bash
// reports such a death (or a plain `exit 137`), and is worded as such.
// "" when jobdeck sent the signal or none ended the job.
func SignalNote(s model.Snapshot) string {
	fs, ok := s.ForeignSignal()
	oom := ""
	if s.OOMKills > 0 {
		oom = fmt.Sprintf(": the kernel's OOM killer killed %s of the job (its cgroup's memory.events)", model.Count(s.OOMKills, "process", "processes"))
	}
	switch {
	case !ok:
		return ""
	case fs.ViaShell && fs.Signal == 9:
		return "note: exit status 137 usually means a process died of SIGKILL, not sent by jobdeck" + oom
	case fs.ViaShell:
		return fmt.Sprintf("note: exit status %d usually means a process died of %s, not sent by jobdeck", 128+fs.Signal, model.SignalName(fs.Signal))
	case fs.Signal == 9:
		return "note: this SIGKILL was not sent by jobdeck" + oom
	}
	return "note: this " + model.SignalName(fs.Signal) + " was not sent by jobdeck"
}

// StopNote describes a stop (model.Stop.Describe) and who asked for it
// when it was not self: "stopped in 1s (asked by codex): SIGTERM to 1
// process; no SIGKILL needed". found, for a stop that found the job
// already "stopping" or "stopped" (model.Report.StopJoined), says so and
// who asked first, whatever their name: two clients may share one. ""
// without a stop.
func StopNote(st *model.Stop, self string, now time.Time, found string) string {
	if st == nil {
		return ""
	}
	who := plain(st.By, 0)
	by := ""
	if who != "" && st.By != self {
		by = model.AskedBy(who)
	}
	if found != "" {
		if who == "" {
			who = "another client"
		}
		by = fmt.Sprintf(" (asked first by %s; this stop found it already %s)", who, found)
	}
	return st.Describe(now, by)
}

// Listening is the line of a job's listening sockets: "listening:
// 127.0.0.1:5173, [::1]:5173"; "" when it listens on none.
func Listening(ports []model.Port) string {
	if len(ports) == 0 {
		return ""
	}
	addrs := make([]string, len(ports))
	for i, p := range ports {
		addrs[i] = p.String()
	}
	return "listening: " + strings.Join(addrs, ", ")
}

// Conflict is the line of a port the job could not bind and who held it:
// "port 5173 was already in use (line 12), held by job 0 (web): pid 4242
// node" (Holder); "" without a conflict.
func Conflict(c *model.PortConflict) string {
	if c == nil {
		return ""
	}
	at := ""
	if c.Seq > 0 {
		at = " (line " + strconv.FormatUint(c.Seq, 10) + ")"
	}
	if c.Port == 0 {
		return "a port was already in use" + at + "; the output does not say which"
	}
	s := "port " + strconv.Itoa(c.Port) + " was already in use" + at
	if c.Holder == nil {
		return s + "; nothing listened on it when jobdeck looked: it may be free now"
	}
	return s + ", held by " + Holder(*c.Holder)
}

// Holder names who holds a port: "job 0 (web): pid 4242 node", "pid 4242
// node, a job of another jobdeck session", "pid 4242 node", "a process of
// uid 1001" (the command as the kernel keeps it, 16 characters at most).
func Holder(h model.PortHolder) string {
	proc := "a process of uid " + strconv.Itoa(h.UID)
	if h.Socket.PID != 0 {
		proc = "pid " + strconv.Itoa(h.Socket.PID)
		if h.Command != "" {
			proc += " " + plain(h.Command, 16)
		}
	}
	switch {
	case h.Job != nil:
		label := h.Job.String()
		if h.JobName != "" {
			label += " (" + plain(h.JobName, model.MaxNameBytes) + ")"
		}
		return "job " + label + ": " + proc
	case h.OtherSession:
		return proc + ", a job of another jobdeck session"
	}
	return proc
}
