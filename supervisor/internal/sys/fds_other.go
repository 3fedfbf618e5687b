//go:build unix && !linux

package sys

// markInheritedCloexec marks fds 3 and up close-on-exec by walking
// /dev/fd (there is no close_range here).
func markInheritedCloexec() { markCloexecIn("/dev/fd") }
