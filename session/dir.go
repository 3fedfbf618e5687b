package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// EnvDir names the environment variable that overrides where sessions keep
// their sockets (like tmux's TMUX_TMPDIR): the directory itself, which
// jobdeck creates 0700 when it is missing. Tests use it to keep their
// sessions apart from the user's.
const EnvDir = "JOBDECK_SESSION_DIR"

// dirMode is the only mode a session directory may have.
const dirMode fs.FileMode = 0o700

// ErrUnsafeDir is wrapped by Dir's error when the session directory exists
// but is not safe to use: not a directory, a symbolic link, owned by
// another user, or open to others.
var ErrUnsafeDir = errors.New("unsafe session directory")

// Dir returns the directory of the calling user's sessions, creating it
// (mode 0700) when it does not exist: $JOBDECK_SESSION_DIR when set, else
// $XDG_RUNTIME_DIR/jobdeck when XDG_RUNTIME_DIR is an absolute directory,
// else jobdeck-<uid> in the temporary directory (os.TempDir). Every call
// checks the directory: it must be a real directory (not a symbolic link),
// owned by the effective uid, with mode 0700 exactly; otherwise the error
// wraps ErrUnsafeDir and says what to fix. Nothing is ever chmod'ed or
// removed behind the user's back.
func Dir() (string, error) {
	dir := os.Getenv(EnvDir)
	if dir == "" {
		dir = defaultDir()
	}
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("%w: %s=%q is not an absolute path; give an absolute directory", ErrUnsafeDir, EnvDir, dir)
	}
	if err := os.Mkdir(dir, dirMode); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("create the session directory %s: %w", dir, err)
	}
	if err := checkDir(dir, os.Geteuid()); err != nil {
		return "", err
	}
	return dir, nil
}

// defaultDir is the session directory when EnvDir is not set.
func defaultDir() string {
	if rt := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		if st, err := os.Stat(rt); err == nil && st.IsDir() {
			return filepath.Join(rt, "jobdeck")
		}
	}
	return filepath.Join(os.TempDir(), "jobdeck-"+strconv.Itoa(os.Geteuid()))
}

// elsewhere is the advice to keep sessions in another directory: the two
// variables Dir reads, each naming a directory of the user's own
// (XDG_RUNTIME_DIR moves the HTTP token's directory too, see
// serve.HTTPToken).
const elsewhere = "set XDG_RUNTIME_DIR to a directory of your own (jobdeck then uses its jobdeck subdirectory, for sessions and the HTTP token), or " + EnvDir + " to one for sessions alone (jobdeck makes it, mode 0700; e.g. " + EnvDir + "=$HOME/.jobdeck-sessions)"

// checkDir refuses a session directory that another user could reach or
// replace: it must not be a symbolic link, must be a directory owned by
// uid, and must have mode 0700 (tmux refuses the same things; another user
// who made /tmp/jobdeck-<uid> first must not get our sockets).
func checkDir(dir string, uid int) error {
	st, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("session directory %s: %w", dir, err)
	}
	if owner, ok := fileOwner(st); ok && owner != uid {
		// Made by another user (first, in a shared /tmp): only its owner
		// can remove it from a sticky directory, so the way out is a
		// directory elsewhere.
		return fmt.Errorf("%w: %s belongs to uid %d, not to you (uid %d), and only its owner can remove it: %s", ErrUnsafeDir, dir, owner, uid, elsewhere)
	}
	fix := "remove it (jobdeck makes a new one), or " + elsewhere
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: %s is a symbolic link; jobdeck keeps its sockets only in a real directory of your own: %s", ErrUnsafeDir, dir, fix)
	case !st.IsDir():
		return fmt.Errorf("%w: %s is not a directory: %s", ErrUnsafeDir, dir, fix)
	}
	if perm := st.Mode().Perm(); perm != dirMode {
		return fmt.Errorf("%w: %s has mode %04o; it must be 0700 so that no other user can reach your sessions: run chmod 700 %s", ErrUnsafeDir, dir, perm, dir)
	}
	return nil
}
