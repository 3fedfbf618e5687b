package supervisor

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// Arg is the hidden first argument that makes a jobdeck binary (or a test
// binary whose TestMain checks for it) run as a supervisor: when
// len(os.Args) > 1 && os.Args[1] == Arg, call os.Exit(Main()).
const Arg = wire.Arg

// EnvSession and EnvJob name the environment markers every process of a job
// inherits: EnvSession=<Config.Session> and EnvJob=<Config.Job in decimal>.
// jobdeck scans /proc/<pid>/environ for both to find what a lost supervisor
// left behind.
const (
	EnvSession = wire.EnvSession
	EnvJob     = wire.EnvJob
)

// DefaultGrace is the grace used when Config.Grace is zero: 5 s.
const DefaultGrace = wire.DefaultGrace

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
	// TTY gives the job a pty on stdout and a second one on stderr, both
	// of one size and in raw output mode (OPOST off, so "\n" stays "\n"),
	// so that isatty(2) holds and a program colours its stderr as in a
	// terminal while jobdeck still tells the streams apart; when the
	// second pty cannot be opened, stderr is a pipe and Handle.Notes says
	// so. False gives the job two pipes. Stdin is always /dev/null.
	TTY bool
	// Ctty (with TTY) also makes the stdout pty the job's controlling terminal,
	// so /dev/tty opens. Off by default, because then the kernel sends
	// SIGHUP to the job's background processes when the leader exits
	// (the leader is the session leader: measured here, `sleep 9 & exit`
	// loses its sleep), which breaks "leader exited, N still running".
	// Without it, /dev/tty fails with ENXIO in both modes.
	Ctty bool
	// Rows and Cols size the ptys; zero means 40 × 160.
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

// maxSession is the longest Config.Session accepted.
const maxSession = 64

// normalize checks cfg and fills in its defaults. Every error is a
// *StartError.
func normalize(cfg Config) (Config, error) {
	c := cfg
	// The rule is model's, checked once there for every layer.
	if err := model.CheckCommand(c.Command); err != nil {
		return c, startErr(ErrBadCommand, err.Error())
	}

	dir := c.Dir
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return c, startErr(ErrBadDir, fmt.Sprintf("working directory %q: %v", c.Dir, err))
	}
	st, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return c, startErr(ErrBadDir, fmt.Sprintf("working directory %s does not exist; create it or pick another", abs))
	case err != nil:
		return c, startErr(ErrBadDir, fmt.Sprintf("working directory %s: %v", abs, err))
	case !st.IsDir():
		return c, startErr(ErrBadDir, fmt.Sprintf("working directory %s is not a directory; pick a directory", abs))
	}
	c.Dir = abs

	if c.Env == nil {
		c.Env = os.Environ()
	}
	for _, kv := range c.Env {
		if strings.IndexByte(kv, 0) >= 0 {
			return c, startErr(ErrBadConfig, fmt.Sprintf("environment entry %q contains a NUL byte; remove it", kv))
		}
	}

	switch {
	case c.Rows < 0 || c.Cols < 0 || c.Rows > 0xffff || c.Cols > 0xffff:
		return c, startErr(ErrBadConfig, fmt.Sprintf("pty size %d×%d is out of range; use 1 to 65535 rows and columns, or 0 for the default", c.Rows, c.Cols))
	case c.Job < 0:
		return c, startErr(ErrBadConfig, fmt.Sprintf("job number %d is negative", c.Job))
	}
	if c.Rows == 0 {
		c.Rows = DefaultRows
	}
	if c.Cols == 0 {
		c.Cols = DefaultCols
	}
	if c.Grace == 0 {
		c.Grace = DefaultGrace
	}
	if c.Session == "" {
		c.Session = newSession()
	}
	if !validSession(c.Session) {
		return c, startErr(ErrBadConfig, fmt.Sprintf("session %q must be 1 to %d characters of A-Z a-z 0-9 . _ -", c.Session, maxSession))
	}
	if c.Exe == "" {
		c.Exe = defaultExe()
	}
	if len(c.Args) == 0 {
		c.Args = []string{Arg}
	}
	return c, nil
}

// validSession reports whether s can be used in an environment marker and
// a cgroup directory name as it is.
func validSession(s string) bool {
	if s == "" || len(s) > maxSession || s == "." || s == ".." {
		return false
	}
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-'
		if !ok {
			return false
		}
	}
	return true
}

// newSession returns a random session marker: "s" and 16 hex digits.
func newSession() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return "s" + hex.EncodeToString(b[:])
}

// defaultExe is the supervisor binary when Config.Exe is empty: this very
// binary. On Linux it is found through /proc, so that it still works after
// the file on disk was replaced; elsewhere as os.Executable finds it.
func defaultExe() string {
	if runtime.GOOS == "linux" {
		return "/proc/self/exe"
	}
	exe, err := os.Executable()
	if err != nil {
		return os.Args[0]
	}
	return exe
}

func startErr(sentinel error, reason string) *StartError {
	return &StartError{Reason: reason, Err: sentinel}
}
