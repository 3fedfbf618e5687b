//go:build unix

package session

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile opens (creating, 0600) the session's lock file without following
// a symbolic link. The file's content does not matter; only the flock held
// on it does.
func lockFile(path string) (*os.File, error) {
	fd, err := unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the session lock %s: %w", path, err)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// tryLock takes an exclusive flock on f without waiting. It returns false
// (and no error) when another open file description holds it: a live
// session, or a client starting one.
func tryLock(f *os.File) (bool, error) {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, unix.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, unix.EINTR):
			continue
		}
		return false, fmt.Errorf("lock %s: %w", f.Name(), err)
	}
}

// locked reports whether a live process holds the lock at path (without
// taking it for long: a free lock is released at once). A missing file is
// not locked.
func locked(path string) bool {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	if err := unix.Flock(fd, unix.LOCK_SH|unix.LOCK_NB); err != nil {
		return errors.Is(err, unix.EWOULDBLOCK)
	}
	_ = unix.Flock(fd, unix.LOCK_UN)
	return false
}

// lockIsPath reports whether f is still the file at path: a lock taken on
// a lock file that an ending session unlinked meanwhile guards nothing,
// and must be taken again on the new file.
func lockIsPath(f *os.File, path string) bool {
	var a, b unix.Stat_t
	if unix.Fstat(int(f.Fd()), &a) != nil || unix.Lstat(path, &b) != nil {
		return false
	}
	return a.Dev == b.Dev && a.Ino == b.Ino
}
