package supervisor

import (
	"errors"
	"os"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// Arg is the hidden first argument that makes a jobdeck binary (or a test
// binary whose TestMain checks for it) run as a supervisor: when
// len(os.Args) > 1 && os.Args[1] == Arg, call os.Exit(Main()).
const Arg = "__jobdeck_supervisor"

// Config says how to start one job.
type Config struct {
	// Command is the shell text; bash evals it. Not blank, at most
	// model.MaxCommandBytes.
	Command string
	// Dir is the job's working directory; it must exist.
	Dir string
	// Env is the job's whole environment. The supervisor adds the markers
	// JOBDECK_SESSION=<Session> and JOBDECK_JOB=<Job>, and removes BASH_ENV
	// and ENV so that bash reads no startup file.
	Env []string
	// TTY gives the job a pty on stdout (in raw output mode: OPOST off);
	// false gives it a pipe. Stderr is always a pipe.
	TTY bool
	// Rows and Cols size the pty; zero means 40 × 160.
	Rows, Cols int
	// Grace is the default time between SIGTERM and SIGKILL, used when
	// jobdeck goes away (EOF on the control pipe); zero means 5 s.
	Grace time.Duration
	// Session and Job mark every process of the job (environment markers,
	// cgroup name) so that leftovers can be found after a crash.
	Session string
	Job     int
	// Exe and Args start the supervisor process; empty means
	// "/proc/self/exe" with []string{Arg}.
	Exe  string
	Args []string
}

// EventKind says what a supervisor reported.
type EventKind uint8

// Kinds of Event, in the order they can happen.
const (
	// EventExit: the leader exited; Event.Exit says how.
	EventExit EventKind = iota + 1
	// EventRemaining: the number of processes of the tree still running
	// changed (reported after the leader exits, and during a stop).
	EventRemaining
	// EventSignalled: a stop signalled processes: Event.Signal is SIGTERM
	// or SIGKILL, Event.Count how many processes got it this time.
	EventSignalled
	// EventEmpty: the tree is empty. It is the last event; the supervisor
	// exits after it.
	EventEmpty
	// EventLost: the supervisor went away without reporting an empty tree
	// (it was killed, or crashed). jobdeck killed what it could still find
	// of the tree (its cgroup, and processes carrying the job's markers);
	// Event.Err says what happened. It is the last event.
	EventLost
)

// Event is one report from a supervisor.
type Event struct {
	Kind      EventKind
	Time      time.Time
	Exit      model.Exit // EventExit
	Remaining int        // EventRemaining, EventExit: processes still running (leader excluded)
	Signal    int        // EventSignalled
	Count     int        // EventSignalled
	Err       string     // EventLost
}

// StartError is returned by Start when the job could not be started at all
// (no bash, a directory that is gone, a command too long for any way of
// passing it). Nothing is left running.
type StartError struct {
	Reason string
}

func (e *StartError) Error() string { return "start failed: " + e.Reason }

// Handle is jobdeck's side of one running supervisor.
type Handle struct{}

var errTODO = errors.New("supervisor: not implemented yet")

// Start starts a supervisor for cfg and returns once the leader runs (or
// with a *StartError once it is known that it cannot). The caller must read
// Stdout and Stderr until EOF (a pty's EIO counts as EOF) and drain Events
// until it is closed.
func Start(cfg Config) (*Handle, error) { return nil, errTODO }

// Pid is the leader's process ID, for display only.
func (h *Handle) Pid() int { return 0 }

// Cgroup is the path of the job's cgroup v2 directory, or "" when the job
// has none (no writable cgroup v2 hierarchy).
func (h *Handle) Cgroup() string { return "" }

// Stdout is the read end of the job's stdout: the pty master, or a pipe.
func (h *Handle) Stdout() *os.File { return nil }

// Stderr is the read end of the job's stderr pipe.
func (h *Handle) Stderr() *os.File { return nil }

// Events delivers the supervisor's reports in order. It is closed after the
// last one (EventEmpty or EventLost), once the supervisor process was
// reaped.
func (h *Handle) Events() <-chan Event { return nil }

// Stop asks for the stop sequence with the given grace (zero: SIGKILL at
// once). It returns at once; progress arrives as events. Asking again with a
// shorter grace shortens the running stop; a longer one changes nothing.
func (h *Handle) Stop(grace time.Duration) error { return errTODO }

// Close closes the control pipe: the supervisor stops the tree with
// Config.Grace and exits. Events still arrive until the channel closes.
func (h *Handle) Close() error { return nil }

// Main is the supervisor process's main function; it returns the exit code.
func Main() int { return 2 }

// Hygiene prepares the calling process for starting jobs: it marks every
// inherited file descriptor above 2 close-on-exec and un-ignores signals that
// a parent may have ignored (SIG_IGN survives exec). jobdeck calls it first
// thing in main; Main calls it too.
func Hygiene() {}
