package supervisor

import (
	"os"
	"sync"
	"sync/atomic"
)

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
	errTTY  bool // stderr is a pty master too (Resize sizes both)
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
// as EOF) and then closes it. On Linux it is in blocking mode and outside
// Go's netpoller, for an epoll loop of the caller's (ARCHITECTURE.md §4);
// elsewhere it is in the netpoller. Do not close it earlier: a job writing to a
// closed pipe gets EPIPE/SIGPIPE.
func (h *Handle) Stdout() *os.File { return h.stdout }

// Stderr is the read end of the job's stderr: a second pty's master with
// Config.TTY (unless Notes says it could not be opened), else a pipe;
// read and close it like Stdout.
func (h *Handle) Stderr() *os.File { return h.stderr }

// Events delivers the supervisor's reports in order. It is closed after the
// last one (EventEmpty or EventLost), once the supervisor process was
// reaped. The caller must keep draining it.
func (h *Handle) Events() <-chan Event { return h.events }
