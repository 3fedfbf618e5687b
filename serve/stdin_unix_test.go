//go:build unix

package serve

import (
	"io"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// nonblocking reads f's O_NONBLOCK flag.
func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	fl := 0
	if err := rc.Control(func(fd uintptr) { fl, err = unix.FcntlInt(fd, unix.F_GETFL, 0) }); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return fl&unix.O_NONBLOCK != 0
}

// blockingStdin is a pipe's read end as a process's stdin is: blocking,
// outside the netpoller.
func blockingStdin(t *testing.T) (r, w *os.File) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	rc, _ := pr.SyscallConn()
	fd := -1
	_ = rc.Control(func(u uintptr) { fd, err = unix.FcntlInt(u, unix.F_DUPFD_CLOEXEC, 0) })
	if err != nil {
		t.Fatal(err)
	}
	pr.Close()
	if err := unix.SetNonblock(fd, false); err != nil {
		t.Fatal(err)
	}
	r = os.NewFile(uintptr(fd), "stdin")
	t.Cleanup(func() { pw.Close() })
	return r, pw
}

// TestPollableStdinPipe: a pipe comes back in the netpoller (it takes a
// deadline), reads the same bytes, and restore gives the open file its
// blocking mode back.
func TestPollableStdinPipe(t *testing.T) {
	r, w := blockingStdin(t)
	if r.SetReadDeadline(time.Time{}) == nil {
		t.Fatal("the test's stdin is already in the netpoller")
	}
	p, restore := PollableStdin(r)
	if p == r {
		t.Fatal("a pipe was left as it was")
	}
	if err := p.SetReadDeadline(time.Time{}); err != nil {
		t.Fatalf("not in the netpoller: %v", err)
	}
	if !nonblocking(t, r) {
		t.Fatal("the pipe is not non-blocking while in use")
	}
	go func() { w.Write([]byte("hello\n")); w.Close() }()
	got, err := io.ReadAll(p)
	if err != nil || string(got) != "hello\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	restore()
	if nonblocking(t, r) {
		t.Fatal("restore left the agent's pipe non-blocking")
	}
	r.Close()
}

// TestPollableStdinRegularFile: a regular file (stdin redirected from
// one) is left alone.
func TestPollableStdinRegularFile(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, restore := PollableStdin(f)
	defer restore()
	if p != f || nonblocking(t, f) {
		t.Fatal("a regular file was changed")
	}
}
