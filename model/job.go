package model

import (
	"fmt"
	"strconv"
	"time"
)

// JobID identifies a job within one jobdeck process: 0, 1, 2 … in start
// order, never reused while the process lives.
type JobID int

// String returns the ID in decimal, as selectors and reports show it.
func (id JobID) String() string { return strconv.Itoa(int(id)) }

// Spec is what a caller asks the jobs core to start. The core checks it
// with the Check* functions of this package.
type Spec struct {
	// Command is the shell text, run by bash (not sh) exactly as typed.
	// It must not be blank or hold a NUL byte, and is at most
	// MaxCommandBytes long.
	Command string
	// Name is an optional label; selectors match it case-insensitively.
	// It must not be a decimal number (that would read as an ID), and is
	// one line of at most MaxNameBytes bytes.
	Name string
	// Dir is the working directory; empty means the jobs core's default
	// (the directory jobdeck was started in), relative means relative to
	// it. It must exist.
	Dir string
	// Env is the job's base environment (KEY=VALUE entries); nil means the
	// jobs core's default (jobdeck's own environment). The core adds its
	// markers and settings (TERM, PAGER, …) to either.
	Env []string
	// Owner is who started the job: "console", or the MCP client's name.
	// Informational; empty means unknown.
	Owner string
	// NoTTY gives the job plain pipes for stdout and stderr instead of a
	// pty on each. Pipes are faster; ptys give line-buffered output and
	// colours from programs that check isatty, on stderr too.
	NoTTY bool
	// Grace is how long a stop waits between SIGTERM and SIGKILL: nil
	// means the jobs core's default (DefaultGrace unless jobdeck was told
	// otherwise), zero means none (SIGKILL at once); at most MaxGrace.
	Grace *time.Duration
	// NoWait makes Start return as soon as the job runs, without the short
	// wait that lets a command that dies at once be reported dead with its
	// output (the console shows the job's fate live instead).
	NoWait bool
	// Size is the size of the job's pty at start (the console gives the
	// pane's); the zero size means the default, 160×40. Ignored with
	// NoTTY. Otherwise each side is 1 to MaxTermCells (CheckTermSize,
	// ErrBadSpec).
	Size TermSize
}

// State is where a job is in its life.
type State uint8

// The states of a job. A job goes Running → (Stopping →) Exited, or straight
// to Failed when it could not be started at all.
const (
	// StateRunning: the leader has not exited.
	StateRunning State = iota + 1
	// StateStopping: a stop was asked for and the leader has not exited yet.
	StateStopping
	// StateExited: the leader exited or was killed; Snapshot.Exit says how.
	// Processes it started may still run (Snapshot.Remaining).
	StateExited
	// StateFailed: the job never ran (no shell, bad directory, …);
	// Snapshot.Err says why.
	StateFailed
)

// String returns the state's word as reports show it: running, stopping,
// exited, failed.
func (s State) String() string {
	switch s {
	case StateRunning:
		return "running"
	case StateStopping:
		return "stopping"
	case StateExited:
		return "exited"
	case StateFailed:
		return "failed"
	}
	return "unknown"
}

// Exit is how a job's leader ended, decoded from the supervisor's wait4
// status (never from output EOF).
type Exit struct {
	// Code is the exit status (0–255) when Signal is zero.
	Code int
	// Signal is the signal number that killed the leader, or zero when it
	// exited normally.
	Signal int
	// Core reports that a core file was written.
	Core bool
}

// Signaled reports whether the leader was killed by a signal.
func (e Exit) Signaled() bool { return e.Signal != 0 }

// ShellCode is the status a shell would show for this exit: Code, or
// 128 + Signal.
func (e Exit) ShellCode() int {
	if e.Signal != 0 {
		return 128 + e.Signal
	}
	return e.Code
}

// String returns "exited 3" or "killed by SIGKILL" (with ", core dumped").
// An exit code from 129 to 159 is how bash reports a child killed by a
// signal, and gets that signal named as a note: "exited 139 (128+SIGSEGV)".
func (e Exit) String() string {
	if e.Signal != 0 {
		s := "killed by " + SignalName(e.Signal)
		if e.Core {
			s += ", core dumped"
		}
		return s
	}
	if e.Code > 128 && e.Code < 160 {
		return fmt.Sprintf("exited %d (128+%s)", e.Code, SignalName(e.Code-128))
	}
	return "exited " + strconv.Itoa(e.Code)
}

// Stop describes a stop that was asked for: by job_kill, the UI, or
// jobdeck's own exit.
type Stop struct {
	// At is when the stop was asked for.
	At time.Time
	// Grace is the time allowed between SIGTERM and SIGKILL.
	Grace time.Duration
	// TermSent counts processes sent SIGTERM (each at most once).
	TermSent int
	// KillSent counts processes that were still running after the grace
	// and got SIGKILL; zero means SIGTERM was enough.
	KillSent int
	// Done is when the tree became empty; zero while the stop runs.
	Done time.Time
	// By is who asked for the stop: "console", an MCP client's name, or
	// "jobdeck" when jobdeck itself was shutting down. Empty: unknown.
	By string
	// Hastened is who shortened the grace of this stop while it ran (a
	// second stop with a shorter grace: Grace is then the shorter one);
	// empty when nobody did.
	Hastened string
}

// Snapshot is a copy of one job's state at one moment. It never changes
// after it is returned.
type Snapshot struct {
	ID      JobID
	Name    string // optional label
	Command string // the command text as given
	Dir     string // working directory
	Owner   string // who started it (Spec.Owner)
	TTY     bool   // stdout is a pty
	State   State
	// PID is the leader's process ID (informational: jobdeck never
	// signals a stored pid). Zero when the job failed to start.
	PID int
	// Started is when the job was started; Ended when the leader exited
	// (zero while it runs).
	Started, Ended time.Time
	// Exit is set once the leader has exited.
	Exit *Exit
	// Remaining counts the processes the leader left running, as last
	// reported by the supervisor: each one counts with whatever it started
	// (a background loop and its current sleep count as 1). Zero once the
	// tree is empty.
	Remaining int
	// Done reports that the tree is empty and all output was read.
	Done bool
	// Stop is set once a stop was asked for.
	Stop *Stop
	// Err is why the job failed to start (StateFailed), or a problem the
	// supervisor reported (for example a lost supervisor).
	Err string
	// Lines is the seq of the last complete line (the total number of
	// complete lines the job printed); Bytes the total bytes read.
	Lines uint64
	Bytes int64
	// FirstSeq is the oldest seq still in the ring; lines before it were
	// dropped. Zero when the ring is empty.
	FirstSeq uint64
	// DroppedBytes counts bytes cut from over-long lines.
	DroppedBytes int64
	// Cgroup tells whether the job runs in its own cgroup v2 (so that
	// cgroup.kill finishes a stop).
	Cgroup bool
	// OOMKills counts the processes of the job the kernel's OOM killer
	// killed, from its cgroup's memory.events once the tree is empty.
	// Zero when none did, and when nobody can know (no cgroup with the
	// memory controller): only a count above zero says it was the OOM
	// killer.
	OOMKills int
	// Notes are what the job's supervisor could not set up and how it
	// falls back ("no cgroup v2 for the job (…); stops rely on the
	// subreaper walk"), one sentence each, without duplicates, and what
	// the core cannot show of the job ("listening ports are not shown:
	// …"). Nil when everything worked.
	Notes []string
	// Ports are the TCP ports the job's tree listens on, sorted by port
	// then address, as of the last scan: the core scans every live job at
	// most once a second and announces a change with a state event. Nil
	// when the tree listens on none, once the tree is empty, and where
	// ports cannot be found (not Linux: Notes says so).
	Ports []Port
	// PortConflict is set once a line of the job's output said a port was
	// already in use (the latest such line), with who held that port. Nil
	// otherwise.
	PortConflict *PortConflict
	// RestartOf is the job this one is a restart of (its previous run,
	// which stays readable); nil for a first run. A console shows the new
	// run where it showed the old one.
	RestartOf *JobID
}

// Elapsed is how long the job ran: until Ended, or until now while the
// leader runs. A job that failed to start has zero elapsed time.
func (s Snapshot) Elapsed(now time.Time) time.Duration {
	if s.Started.IsZero() {
		return 0
	}
	end := now
	if !s.Ended.IsZero() {
		end = s.Ended
	}
	if end.Before(s.Started) {
		return 0
	}
	return end.Sub(s.Started)
}

// Live reports whether any process of the job may still run: the leader,
// or processes it left behind. Live jobs count against the running limit.
func (s Snapshot) Live() bool {
	if s.State == StateFailed {
		return false
	}
	return !s.Done && (s.Exit == nil || s.Remaining > 0 || s.State == StateStopping)
}

// Label is "3" or "3 (dev)": the ID, with the name when there is one.
func (s Snapshot) Label() string {
	if s.Name == "" {
		return s.ID.String()
	}
	return s.ID.String() + " (" + s.Name + ")"
}

// FormatElapsed formats d the way reports show it: "0:07", "12:03",
// "1:02:03" (hours only when needed). Negative durations show as "0:00".
func FormatElapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	h, m, sec := s/3600, (s/60)%60, s%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
	}
	return fmt.Sprintf("%d:%02d", m, sec)
}
