//go:build unix

package process

import (
	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
)

// target is a descendant opened as a pidfd and verified (verifiedTree): it
// stays safe to signal through fd until fd is closed, whatever happens to
// its pid.
type target struct {
	sys.Stat
	fd int
}

func closeTargets(ts []target) {
	for _, t := range ts {
		unix.Close(t.fd)
	}
}
