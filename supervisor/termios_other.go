//go:build unix && !linux

package supervisor

import (
	"os"

	"golang.org/x/sys/unix"
)

// rawOutput clears OPOST on the pty slave f (see termios_linux.go) with
// the BSD ioctls, which macOS shares.
func rawOutput(f *os.File) error { return clearOPOST(f, unix.TIOCGETA, unix.TIOCSETA) }
