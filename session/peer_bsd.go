//go:build darwin || freebsd

package session

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// peerCred returns the uid of the process at the other end of a Unix
// socket (LOCAL_PEERCRED, unix(4)); the pid is not known (0).
func peerCred(c *net.UnixConn) (uid, pid int, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, 0, err
	}
	var cred *unix.Xucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return -1, 0, err
	}
	if cerr != nil {
		return -1, 0, fmt.Errorf("LOCAL_PEERCRED: %w", cerr)
	}
	return int(cred.Uid), 0, nil
}
