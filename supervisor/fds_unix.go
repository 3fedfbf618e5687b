//go:build unix

package supervisor

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// markCloexecIn marks every fd >= 3 listed in dir (/proc/self/fd, /dev/fd)
// close-on-exec. The directory's own fd is among them; marking it is
// harmless.
func markCloexecIn(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, n := range names {
		if fd, err := strconv.Atoi(n); err == nil && fd >= 3 {
			unix.CloseOnExec(fd)
		}
	}
}

// pollable returns f, a file that File.Fd put in blocking mode, as a new
// *os.File in Go's netpoller: a dup of its descriptor (close-on-exec) in
// non-blocking mode; f is closed. creack/pty reaches the pty master
// through Fd (ioctls), and a blocking read holds an OS thread of jobdeck's
// for the job's whole life: threads count against the user's process
// limit, and when a new one cannot be made (a fork bomb in another job)
// the Go runtime aborts. On failure f is returned unchanged, still usable.
func pollable(f *os.File) (*os.File, error) {
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
	if err := unix.SetNonblock(nfd, true); err != nil {
		unix.Close(nfd)
		return f, err
	}
	name := f.Name()
	f.Close()
	return os.NewFile(uintptr(nfd), name), nil
}
