package sys

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// ChildInfo is the start of the kernel's siginfo_t for SIGCHLD-style
// results (waitid(2)): after signo, errno, code and padding come si_pid,
// si_uid and si_status. unix.Siginfo keeps that union opaque. Pid is 0
// when a WNOHANG waitid found no child that changed state; Code is
// CLD_EXITED (1), CLD_KILLED (2), CLD_DUMPED (3), …
type ChildInfo struct {
	Signo, Errno, Code, _ int32
	Pid                   int32
	UID                   uint32
	Status                int32
}

// ChildInfoOf reads si as the result of a waitid call.
func ChildInfoOf(si *unix.Siginfo) *ChildInfo {
	return (*ChildInfo)(unsafe.Pointer(si))
}
