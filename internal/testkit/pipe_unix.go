//go:build unix

package testkit

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// BlockingPipe returns a pipe whose read end is in blocking mode and
// outside Go's netpoller, as a process's stdin is when a parent made it a
// pipe, and as the supervisor hands out a job's output on Linux. Both ends
// are closed at the end of the test (closing one twice is harmless).
func BlockingPipe(t testing.TB) (r, w *os.File) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	rc, err := pr.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	fd := -1
	if cerr := rc.Control(func(u uintptr) { fd, err = unix.FcntlInt(u, unix.F_DUPFD_CLOEXEC, 0) }); cerr != nil || err != nil {
		t.Fatal(cerr, err)
	}
	pr.Close()
	// The flag is the open file's; os.NewFile leaves a blocking
	// descriptor out of the netpoller.
	if err := unix.SetNonblock(fd, false); err != nil {
		t.Fatal(err)
	}
	r = os.NewFile(uintptr(fd), "blocking-pipe")
	t.Cleanup(func() { r.Close(); pw.Close() })
	return r, pw
}
