package present

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/words"
)

// maxPortsTagged is how many ports a tag names before "+N".
const maxPortsTagged = 3

// PortsTag is how the list and pane titles show a job's listening ports:
// each port number once, lowest first (":5173 :24678"), at most three
// and then how many more ("+2"); "" when it listens on none.
func PortsTag(ports []model.Port) string {
	if len(ports) == 0 {
		return ""
	}
	nums := make([]int, 0, len(ports))
	for _, p := range ports {
		nums = append(nums, p.Port)
	}
	slices.Sort(nums)
	nums = slices.Compact(nums)
	var b strings.Builder
	for i, n := range nums {
		if i == maxPortsTagged {
			b.WriteString(" +" + strconv.Itoa(len(nums)-i))
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(":" + strconv.Itoa(n))
	}
	return b.String()
}

// Label is a job's label with its ports: "0 (web) :5173", or "0 (web)".
func Label(s model.Snapshot) string {
	if tag := PortsTag(s.Ports); tag != "" {
		return s.Label() + " " + tag
	}
	return s.Label()
}

// Title is a pane's title: the report header with the ports after the
// label, "job 0 (web) :5173 running 1:15 npm run dev".
func Title(s model.Snapshot, now time.Time) string {
	return s.HeaderWith(now, PortsTag(s.Ports), model.MaxHeaderCommand)
}

// Details are the /job-status lines that say where and how a job runs:
// "pid 4242 · started 12:00:03 by console · own cgroup", "dir: …",
// "command: …" (the whole command, a line for each of its lines), its
// listening sockets and a port conflict.
func Details(s model.Snapshot, now time.Time) []string {
	var first []string
	if s.PID != 0 {
		first = append(first, "pid "+strconv.Itoa(s.PID))
	}
	if !s.Started.IsZero() {
		at := s.Started.Format("15:04:05")
		if y, d := s.Started.Year(), s.Started.YearDay(); y != now.Year() || d != now.YearDay() {
			at = s.Started.Format("Jan 2 15:04:05")
		}
		first = append(first, "started "+at)
	}
	if s.Owner != "" {
		by := "by " + model.OneLine(sanitize.Plain([]byte(s.Owner)), 0)
		if n := len(first); n > 0 && strings.HasPrefix(first[n-1], "started ") {
			first[n-1] += " " + by
		} else {
			first = append(first, "started "+by)
		}
	}
	if s.State != model.StateFailed {
		if s.Cgroup {
			first = append(first, "own cgroup")
		} else {
			first = append(first, "no cgroup")
		}
	}
	if s.RestartOf != nil {
		first = append(first, "restart of job "+s.RestartOf.String())
	}
	var out []string
	if len(first) > 0 {
		out = append(out, strings.Join(first, " · "))
	}
	if s.Dir != "" {
		out = append(out, "dir: "+model.OneLine(s.Dir, 0)) // the path as it is: an escape shows as ␛
	}
	for i, l := range strings.Split(strings.TrimRight(s.Command, "\n"), "\n") {
		lead := "command: "
		if i > 0 {
			lead = "         "
		}
		// OneLine trims; the command's own indentation is kept.
		l = sanitize.Plain([]byte(l))
		indent := len(l) - len(strings.TrimLeft(l, " \t"))
		out = append(out, lead+strings.Repeat(" ", indent)+model.OneLine(l, 0))
	}
	if l := words.Listening(s.Ports); l != "" {
		out = append(out, l)
	}
	if c := words.Conflict(s.PortConflict); c != "" {
		out = append(out, c)
	}
	return out
}
