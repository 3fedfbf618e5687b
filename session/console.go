//go:build unix

package session

import (
	"context"
	"errors"
)

// serveConsole serves the native dialect to a console. (Being written.)
func (s *server) serveConsole(ctx context.Context, conn *serverConn) error {
	return errors.New("the console dialect is not served yet")
}
