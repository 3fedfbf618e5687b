//go:build unix && !linux

package session

import (
	"context"
	"net"
)

// watchHangup does nothing here: a dead agent is noticed when its pending
// answers cannot be written.
func watchHangup(ctx context.Context, c *net.UnixConn, gone func()) {}
