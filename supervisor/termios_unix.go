//go:build unix

package supervisor

import (
	"os"

	"golang.org/x/sys/unix"
)

// clearOPOST reads the termios of f with the get request, clears OPOST and
// writes it back with the set request. It works on the descriptor through
// SyscallConn, so f keeps its blocking mode.
func clearOPOST(f *os.File, get, set uint) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ioErr error
	err = rc.Control(func(fd uintptr) {
		t, err := unix.IoctlGetTermios(int(fd), get)
		if err != nil {
			ioErr = err
			return
		}
		t.Oflag &^= unix.OPOST
		ioErr = unix.IoctlSetTermios(int(fd), set, t)
	})
	if err != nil {
		return err
	}
	return ioErr
}
