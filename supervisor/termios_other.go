//go:build unix && !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package supervisor

import (
	"errors"
	"os"
)

// rawOutput is not implemented on this Unix: the job's pty output stays
// cooked ("\n" arrives as "\r\n"), and Start says so in Handle.Notes.
func rawOutput(*os.File) error {
	return errors.New("clearing OPOST is not implemented on this operating system")
}
