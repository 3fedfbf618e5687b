//go:build unix

package supervisor

import (
	"os"

	"golang.org/x/sys/unix"
)

// redup returns f as a new *os.File on a dup of its descriptor
// (close-on-exec), non-blocking or not; f is closed. The non-blocking
// flag belongs to the open file, shared by f and the dup, and os.NewFile
// puts the file in Go's netpoller exactly when it is non-blocking. On
// failure f is returned unchanged, still usable.
func redup(f *os.File, nonblock bool) (*os.File, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return f, err
	}
	nfd, derr := -1, error(nil)
	if err := rc.Control(func(fd uintptr) { nfd, derr = unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return f, err
	}
	if derr != nil {
		return f, derr
	}
	if err := unix.SetNonblock(nfd, nonblock); err != nil {
		unix.Close(nfd)
		return f, err
	}
	name := f.Name()
	f.Close()
	return os.NewFile(uintptr(nfd), name), nil
}
