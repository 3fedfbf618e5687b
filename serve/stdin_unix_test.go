//go:build unix

package serve

import (
	"io"
	"os"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
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

// TestPollableStdinPipe: a pipe comes back in the netpoller (it takes a
// deadline), reads the same bytes, and restore gives the open file its
// blocking mode back.
func TestPollableStdinPipe(t *testing.T) {
	r, w := testkit.BlockingPipe(t)
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
