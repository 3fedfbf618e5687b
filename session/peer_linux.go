package session

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// peerCred returns the uid and pid of the process at the other end of a
// Unix socket, as the kernel recorded them when it connected (SO_PEERCRED,
// unix(7)).
func peerCred(c *net.UnixConn) (uid, pid int, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, 0, err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return -1, 0, err
	}
	if cerr != nil {
		return -1, 0, fmt.Errorf("SO_PEERCRED: %w", cerr)
	}
	return int(cred.Uid), int(cred.Pid), nil
}
