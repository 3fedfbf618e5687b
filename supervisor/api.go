package supervisor

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// Arg is the hidden first argument that makes a jobdeck binary (or a test
// binary whose TestMain checks for it) run as a supervisor: when
// len(os.Args) > 1 && os.Args[1] == Arg, call os.Exit(Main()).
const Arg = "__jobdeck_supervisor"

// EnvSession and EnvJob name the environment markers every process of a job
// inherits: EnvSession=<Config.Session> and EnvJob=<Config.Job in decimal>.
// jobdeck scans /proc/<pid>/environ for both to find what a lost supervisor
// left behind.
const (
	EnvSession = "JOBDECK_SESSION"
	EnvJob     = "JOBDECK_JOB"
)

// DefaultGrace is the grace used when Config.Grace is zero: 5 s.
const DefaultGrace = 5 * time.Second

// DefaultRows and DefaultCols size a job's pty when Config.Rows or
// Config.Cols is zero.
const (
	DefaultRows = 40
	DefaultCols = 160
)

// Config says how to start one job.
type Config struct {
	// Command is the shell text; bash evals it. Not blank, no NUL byte, at
	// most model.MaxCommandBytes.
	Command string
	// Dir is the job's working directory; it must exist and be a
	// directory. Empty means jobdeck's working directory. A relative path
	// is taken relative to jobdeck's working directory.
	Dir string
	// Env is the job's whole environment; nil means jobdeck's own
	// (os.Environ()), an empty slice an empty one. The supervisor adds the markers
	// JOBDECK_SESSION=<Session> and JOBDECK_JOB=<Job> (replacing any it
	// inherited), sets PWD to Dir, and removes BASH_ENV and ENV so that
	// bash reads no startup file.
	Env []string
	// TTY gives the job a pty on stdout (in raw output mode: OPOST off, so
	// "\n" stays "\n"); false gives it a pipe. Stderr is always a pipe and
	// stdin is always /dev/null.
	TTY bool
	// Ctty (with TTY) also makes the pty the job's controlling terminal,
	// so /dev/tty opens. Off by default, because then the kernel sends
	// SIGHUP to the job's background processes when the leader exits
	// (the leader is the session leader: measured here, `sleep 9 & exit`
	// loses its sleep), which breaks "leader exited, N still running".
	// Without it, /dev/tty fails with ENXIO in both modes.
	Ctty bool
	// Rows and Cols size the pty; zero means 40 × 160.
	Rows, Cols int
	// Grace is the default time between SIGTERM and SIGKILL, used when
	// jobdeck goes away (EOF on the control pipe); zero means 5 s, negative
	// means none (SIGKILL at once).
	Grace time.Duration
	// Session and Job mark every process of the job (environment markers,
	// cgroup name) so that leftovers can be found after a crash. Session
	// is 1 to 64 characters of [A-Za-z0-9._-]; empty means a fresh random
	// one (see Handle.Session).
	Session string
	Job     int
	// NoCgroup keeps the job out of a cgroup v2 of its own even where one
	// could be made; stops then rely on the subreaper walk alone.
	NoCgroup bool
	// Exe and Args start the supervisor process: an empty Exe means this
	// binary ("/proc/self/exe" on Linux), empty Args []string{Arg}. They
	// never carry the command.
	Exe  string
	Args []string
}

// EventKind says what a supervisor reported.
type EventKind uint8

// Kinds of Event, in the order they can happen.
const (
	// EventExit: the leader exited; Event.Exit says how and
	// Event.Remaining how many other processes of the tree still run.
	EventExit EventKind = iota + 1
	// EventRemaining: the number of processes of the tree still running
	// changed (reported after the leader exits, and during a stop).
	EventRemaining
	// EventSignalled: a stop signalled processes: Event.Signal is SIGTERM
	// or SIGKILL, Event.Count how many processes got it this time. Each
	// process gets SIGTERM at most once; SIGKILL events appear only when
	// something outlived the grace.
	EventSignalled
	// EventEmpty: the tree is empty (no process left; Remaining is zero).
	// It is the last event; the supervisor exits after it.
	EventEmpty
	// EventLost: the supervisor went away without reporting an empty tree
	// (it was killed, or crashed). jobdeck killed what it could still find
	// of the tree (its cgroup, processes carrying the job's markers and,
	// where it adopts orphans, what came back to it) and removed the job's
	// private directory; Event.Err says what happened. It is the last
	// event.
	EventLost
	// EventLimit: the job was seen at its process limit (its forks
	// failed); Event.Note says which limit and how it was seen. At most
	// once per job, at any time before the last event.
	EventLimit
)

// String returns the kind's name: exit, remaining, signalled, empty, lost,
// limit.
func (k EventKind) String() string {
	switch k {
	case EventExit:
		return "exit"
	case EventRemaining:
		return "remaining"
	case EventSignalled:
		return "signalled"
	case EventEmpty:
		return "empty"
	case EventLost:
		return "lost"
	case EventLimit:
		return "limit"
	}
	return "unknown"
}

// Event is one report from a supervisor.
type Event struct {
	Kind      EventKind
	Time      time.Time  // when the supervisor saw it happen
	Exit      model.Exit // EventExit
	Remaining int        // EventRemaining, EventExit: processes left running besides the leader, each counted with what it started
	Signal    int        // EventSignalled
	Count     int        // EventSignalled
	Err       string     // EventLost
	Note      string     // EventLimit
}

// Errors a StartError can wrap (test with errors.Is).
var (
	// ErrBadCommand: the command is blank, too long or contains a NUL byte.
	ErrBadCommand = errors.New("bad command")
	// ErrBadDir: the working directory does not exist or is not a directory.
	ErrBadDir = errors.New("bad working directory")
	// ErrBadConfig: another Config field is unusable (Session, Rows, Cols).
	ErrBadConfig = errors.New("bad job configuration")
	// ErrNoShell: bash is not in the job's PATH.
	ErrNoShell = errors.New("bash not found")
	// ErrSupervisor: the supervisor process could not be started or did
	// not answer.
	ErrSupervisor = errors.New("supervisor did not start")
	// ErrUnsupported: this operating system cannot run jobs.
	ErrUnsupported = errors.New("jobs are not supported on this operating system")
)

// ErrNoTTY is returned by Resize for a job whose stdout is a pipe.
var ErrNoTTY = errors.New("supervisor: the job has no pty to resize (its output is a pipe)")

// ErrClosed is returned by Stop after Close.
var ErrClosed = errors.New("supervisor: handle closed; the job is being stopped with its default grace")

// ErrGone is returned by Stop when the supervisor has exited without
// reporting an empty tree (EventLost follows or came already).
var ErrGone = errors.New("supervisor: the job's supervisor is gone; see the EventLost event")

// StartError is returned by Start when the job could not be started at all
// (no bash, a directory that is gone, a command too long for any way of
// passing it). Every error Start returns is a *StartError. Nothing is left
// running.
type StartError struct {
	// Reason is a sentence for people: what failed and what to do.
	Reason string
	// Err is one of the Err* sentinels above, for errors.Is.
	Err error
}

// Error returns "start failed: " and the Reason.
func (e *StartError) Error() string { return "start failed: " + e.Reason }

// Unwrap returns the sentinel error (ErrBadDir, ErrNoShell, …).
func (e *StartError) Unwrap() error { return e.Err }

// Handle is jobdeck's side of one running supervisor. Its methods are safe
// for concurrent use.
type Handle struct {
	proc    *os.Process // the supervisor (pidfd-backed); never waited on (waiter reaps it)
	supPid  int         // proc's pid, kept apart: proc.Pid changes once it is released
	waiter  *exitWaiter
	tmpBase string // where the job's private directory is (privateBase)
	stdout  *os.File
	stderr  *os.File
	tty     bool // stdout is a pty master (Resize sizes it)
	events  chan Event
	pid     int
	cgroup  string
	session string
	job     int
	notes   []string

	ctlMu  sync.Mutex
	ctl    *os.File // control pipe, write end; nil after Close or once the supervisor is gone
	closed bool     // Close was called

	empty atomic.Bool // EventEmpty was seen
}

// Pid is the leader's process ID, for display only.
func (h *Handle) Pid() int { return h.pid }

// SupervisorPid is the supervisor's process ID: the root of the job's
// process tree, for walking the tree (never to signal: Stop does that). It
// stays the supervisor's while the tree lives, since jobdeck reaps it only
// after the tree is empty.
func (h *Handle) SupervisorPid() int { return h.supPid }

// Cgroup is the path of the job's cgroup v2 directory, or "" when the job
// has none (no writable cgroup v2 hierarchy, or Config.NoCgroup).
func (h *Handle) Cgroup() string { return h.cgroup }

// Session is the session marker of the job (Config.Session, or the one
// Start made up when it was empty).
func (h *Handle) Session() string { return h.session }

// Notes lists what the supervisor could not set up and how it falls back
// ("no cgroup v2: …", "no subreaper on darwin: …"); empty when everything
// works. For logs and diagnostics; never needed to run the job.
func (h *Handle) Notes() []string { return append([]string(nil), h.notes...) }

// Stdout is the read end of the job's stdout: the pty master, or a pipe.
// The caller reads it until EOF (a pty master reports EIO instead: treat it
// as EOF) and then closes it. Do not close it earlier: a job writing to a
// closed pipe gets EPIPE/SIGPIPE.
func (h *Handle) Stdout() *os.File { return h.stdout }

// Stderr is the read end of the job's stderr pipe; read and close it like
// Stdout.
func (h *Handle) Stderr() *os.File { return h.stderr }

// Events delivers the supervisor's reports in order. It is closed after the
// last one (EventEmpty or EventLost), once the supervisor process was
// reaped. The caller must keep draining it.
func (h *Handle) Events() <-chan Event { return h.events }
