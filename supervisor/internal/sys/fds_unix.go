//go:build unix

package sys

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
