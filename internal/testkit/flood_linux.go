package testkit

import (
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// FloodRead is the trivial reader jobdeck's ingest is measured against: it
// runs `bash -c cmd` with its stdout on a pipe, or on a pty in raw output
// mode (OPOST off, as jobdeck's) whose slave is the command's controlling
// terminal, hands the read end to consume (nil: read and discard), and
// returns the wall time from the start to the command's exit with all its
// output consumed. A pty's read ends in EIO once the command is gone:
// consume treats that as the end.
func FloodRead(b testing.TB, cmd string, tty bool, consume func(io.Reader)) time.Duration {
	b.Helper()
	if consume == nil {
		consume = func(r io.Reader) { _, _ = io.Copy(io.Discard, r) }
	}
	c := exec.Command("bash", "-c", cmd)
	var r, w *os.File
	var err error
	if tty {
		if r, w, err = pty.Open(); err != nil {
			b.Fatal(err)
		}
		tio, err := unix.IoctlGetTermios(int(w.Fd()), unix.TCGETS)
		if err != nil {
			b.Fatal(err)
		}
		tio.Oflag &^= unix.OPOST
		if err := unix.IoctlSetTermios(int(w.Fd()), unix.TCSETS, tio); err != nil {
			b.Fatal(err)
		}
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1}
	} else if r, w, err = os.Pipe(); err != nil {
		b.Fatal(err)
	}
	c.Stdout = w
	t0 := time.Now()
	if err := c.Start(); err != nil {
		b.Fatal(err)
	}
	w.Close()
	consume(r)
	if err := c.Wait(); err != nil {
		b.Fatal(err)
	}
	d := time.Since(t0)
	r.Close()
	return d
}
