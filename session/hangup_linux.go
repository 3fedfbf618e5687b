package session

import (
	"context"
	"net"
	"time"

	"golang.org/x/sys/unix"
)

// hangupEvery is how often a session looks whether an agent's connection
// was closed for good.
const hangupEvery = 250 * time.Millisecond

// watchHangup calls gone once c's peer has closed the connection for good
// (POLLHUP: both directions), until ctx ends. An agent's input ending is
// only half a close (the relay still reads its answers, which the session
// still owes), and shows as EOF on read; a relay that died (SIGKILL)
// closes both, and its pending waits must not keep it attached.
func watchHangup(ctx context.Context, c *net.UnixConn, gone func()) {
	raw, err := c.SyscallConn()
	if err != nil {
		return
	}
	t := time.NewTicker(hangupEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		hup := false
		if raw.Control(func(fd uintptr) {
			p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			if n, err := unix.Poll(p, 0); err == nil && n > 0 {
				hup = p[0].Revents&(unix.POLLHUP|unix.POLLERR) != 0
			}
		}) != nil || hup {
			gone()
			return
		}
	}
}
