package sys

import (
	"math"

	"golang.org/x/sys/unix"
)

// markInheritedCloexec marks fds 3 and up close-on-exec with one
// close_range(2) call (Linux >= 5.11), or by walking /proc/self/fd.
func markInheritedCloexec() {
	if unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	markCloexecIn("/proc/self/fd")
}
