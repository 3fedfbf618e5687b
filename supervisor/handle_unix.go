//go:build unix

package supervisor

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// Stop asks for the stop sequence with the given grace (zero or negative:
// SIGKILL at once, without SIGTERM). It returns at once; progress arrives as
// events. Asking again with a shorter grace shortens the running stop; a
// longer one changes nothing. Stop after EventEmpty returns nil; after Close
// it returns ErrClosed; when the supervisor is gone it returns an error
// wrapping ErrGone.
func (h *Handle) Stop(grace time.Duration) error {
	if grace < 0 {
		grace = 0
	}
	return h.control(wire.ControlRequest{Op: wire.OpStop, GraceNS: int64(grace)})
}

// Close closes the control pipe: the supervisor stops the tree with
// Config.Grace and exits. Events still arrive until the channel closes.
// Close does not close Stdout or Stderr (the caller does, after EOF). It is
// idempotent and returns nil.
func (h *Handle) Close() error {
	h.ctlMu.Lock()
	defer h.ctlMu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	if h.ctl != nil {
		h.ctl.Close()
		h.ctl = nil
	}
	return nil
}

// Resize sets the size of the job's ptys, stdout's and stderr's alike,
// to cols×rows cells (TIOCSWINSZ on each master) and then has the
// supervisor send SIGWINCH, once, to the leader's process group, as a
// terminal does to its foreground: the ptys are not the job's controlling
// terminal (Config.Ctty), so the kernel sends none itself. Programs that
// read the size (tput, ls, test runners, progress bars) see the new one
// from then on, on either stream. Sides are 1 to 65535. Errors: ErrNoTTY
// for a job on pipes; once the output is closed (the job is over),
// ErrClosed after Close, or an error wrapping ErrGone.
func (h *Handle) Resize(cols, rows int) error {
	if !h.tty {
		return ErrNoTTY
	}
	if cols < 1 || rows < 1 || cols > 0xffff || rows > 0xffff {
		return fmt.Errorf("%w: a pty of %d×%d cells", ErrBadConfig, cols, rows)
	}
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	if err := setWinsize(h.stdout, ws); err != nil {
		return err
	}
	if h.errTTY {
		// stderr's master may be closed already (its reader saw the end)
		// while stdout's is open: only stdout's decides the error.
		_ = setWinsize(h.stderr, ws)
	}
	return h.control(wire.ControlRequest{Op: wire.OpWinch})
}

// setWinsize sets the size of the pty behind master. The ioctl goes
// through the raw conn, never File.Fd, which can put the master back in
// blocking mode (its reader relies on it not being).
func setWinsize(master *os.File, ws *unix.Winsize) error {
	rc, err := master.SyscallConn()
	if err != nil {
		return fmt.Errorf("%w (%v)", ErrGone, err)
	}
	var ioErr error
	if err := rc.Control(func(fd uintptr) { ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws) }); err != nil {
		return fmt.Errorf("%w (the output is closed: %v)", ErrGone, err)
	}
	if ioErr != nil {
		return fmt.Errorf("resize the pty to %d×%d: %w", ws.Col, ws.Row, ioErr)
	}
	return nil
}

// control writes one control line; see Stop for the errors.
func (h *Handle) control(r wire.ControlRequest) error {
	h.ctlMu.Lock()
	defer h.ctlMu.Unlock()
	switch {
	case h.empty.Load():
		return nil
	case h.closed:
		return ErrClosed
	case h.ctl == nil:
		return ErrGone
	}
	// The supervisor reads its control pipe all the time; the deadline
	// only guards against a hung supervisor.
	_ = h.ctl.SetWriteDeadline(time.Now().Add(2 * time.Second))
	err := wire.WriteLine(h.ctl, r)
	_ = h.ctl.SetWriteDeadline(time.Time{})
	if err != nil {
		if h.empty.Load() {
			return nil
		}
		return fmt.Errorf("%w (%v)", ErrGone, err)
	}
	return nil
}
