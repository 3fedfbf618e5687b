//go:build unix

package supervisor

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// Resize sets the size of the job's pty to cols×rows cells (TIOCSWINSZ on
// the master) and has the supervisor send SIGWINCH to the leader's process
// group, as a terminal does to its foreground: the pty is not the job's
// controlling terminal (Config.Ctty), so the kernel sends none itself.
// Programs that read the size (tput, ls, test runners, progress bars) see
// the new one from then on. Sides are 1 to 65535. Errors: ErrNoTTY for a
// job on pipes; once the output is closed (the job is over), ErrClosed
// after Close, or an error wrapping ErrGone.
func (h *Handle) Resize(cols, rows int) error {
	if !h.tty {
		return ErrNoTTY
	}
	if cols < 1 || rows < 1 || cols > 0xffff || rows > 0xffff {
		return fmt.Errorf("%w: a pty of %d×%d cells", ErrBadConfig, cols, rows)
	}
	// The ioctl goes through the raw conn, never File.Fd, which would put
	// the master back in blocking mode (the reader relies on the poller).
	rc, err := h.stdout.SyscallConn()
	if err != nil {
		return fmt.Errorf("%w (%v)", ErrGone, err)
	}
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	var ioErr error
	if err := rc.Control(func(fd uintptr) { ioErr = unix.IoctlSetWinsize(int(fd), unix.TIOCSWINSZ, ws) }); err != nil {
		return fmt.Errorf("%w (the output is closed: %v)", ErrGone, err)
	}
	if ioErr != nil {
		return fmt.Errorf("resize the pty to %d×%d: %w", cols, rows, ioErr)
	}
	return h.control(controlRequest{Op: opWinch})
}

// control writes one control line; see Stop for the errors.
func (h *Handle) control(r controlRequest) error {
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
	err := writeJSONLine(h.ctl, r)
	_ = h.ctl.SetWriteDeadline(time.Time{})
	if err != nil {
		if h.empty.Load() {
			return nil
		}
		return fmt.Errorf("%w (%v)", ErrGone, err)
	}
	return nil
}
