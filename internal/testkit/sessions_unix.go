//go:build unix

package testkit

import (
	"errors"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// SessionsLive reports whether a jobdeck session whose directory is dir
// (JOBDECK_SESSION_DIR) is alive: each live session holds its <key>.lock
// with flock for its whole life, and nothing else does.
func SessionsLive(dir string) bool {
	locks, _ := filepath.Glob(filepath.Join(dir, "*.lock"))
	for _, l := range locks {
		if lockHeld(l) {
			return true
		}
	}
	return false
}

// WaitSessions waits, at most d, until no session in dir is alive, and
// reports whether none is. A test that starts jobdeck with a session
// directory of its own waits so before the directory goes: a session
// outlives its last client by its linger and then stops its jobs.
func WaitSessions(dir string, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for SessionsLive(dir) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// lockHeld reports whether another process holds a flock on path.
func lockHeld(path string) bool {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	if err := unix.Flock(fd, unix.LOCK_SH|unix.LOCK_NB); err != nil {
		return errors.Is(err, unix.EWOULDBLOCK)
	}
	return false
}
