package supervisor

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jobdeck/jobdeck/model"
)

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

// cgroupName is the name of a job's cgroup directory:
// jobdeck-<session>-<job>.
func cgroupName(session string, job int) string {
	return fmt.Sprintf("jobdeck-%s-%d", session, job)
}

func startErr(sentinel error, reason string) *StartError {
	return &StartError{Reason: reason, Err: sentinel}
}
