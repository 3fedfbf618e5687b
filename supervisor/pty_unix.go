//go:build unix

package supervisor

import (
	"fmt"
	"os"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// openPty opens a pty for a job's stdout, sized rows×cols, in raw output
// mode (rawOutput), its master in Go's netpoller (pollable); both ends are
// added to owned. notes says what of that could not be done: the job runs
// all the same.
func openPty(rows, cols int, owned *fileSet) (master, slave *os.File, notes []string, err error) {
	master, slave, err = pty.Open()
	if err != nil {
		return nil, nil, nil, err
	}
	owned.add(master, slave)
	if err := pty.Setsize(master, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)}); err != nil {
		notes = append(notes, fmt.Sprintf("could not size the pty to %d×%d: %v", rows, cols, err))
	}
	if err := rawOutput(slave); err != nil {
		notes = append(notes, fmt.Sprintf("pty output stays cooked (\\n becomes \\r\\n): %v", err))
	}
	if p, err := pollable(master); err == nil && p != master {
		owned.remove(master)
		master = p
		owned.add(master)
	}
	return master, slave, notes, nil
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
