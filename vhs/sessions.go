//go:build unix

package vhs

import (
	"errors"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// SessionsEnd bounds how long Run waits, after a tape, for the jobdeck
// sessions it started to end: a session outlives its last client by its
// linger (5 s) and then stops its jobs (their grace).
const SessionsEnd = 30 * time.Second

// waitSessions waits until no session in dir holds its lock (each live
// session holds <key>.lock with flock for its whole life), at most d.
func waitSessions(dir string, d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		locks, _ := filepath.Glob(filepath.Join(dir, "*.lock"))
		live := false
		for _, l := range locks {
			live = live || lockHeld(l)
		}
		if !live {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
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
