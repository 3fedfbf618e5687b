//go:build !linux && !darwin && !freebsd

package session

import (
	"errors"
	"net"
)

// peerCred cannot learn who is at the other end of a socket on this
// platform; every connection is refused (a session that could not tell
// its owner from another user must not run commands for either).
func peerCred(c *net.UnixConn) (uid, pid int, err error) {
	return -1, 0, errors.New("peer credentials are not available on this platform; use --private")
}
