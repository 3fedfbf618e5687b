//go:build unix && !linux

package process

import "syscall"

// verifiedTree finds nothing here: without /proc and pidfds no descendant
// can be listed and signalled safely.
func verifiedTree(int, bool) []target { return nil }

// signal is never called here (verifiedTree finds no targets).
func (t target) signal(syscall.Signal) error { return syscall.ENOSYS }
