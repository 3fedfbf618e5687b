//go:build unix

package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// parentEvery is how often a relay checks that the process that started
// it (the agent's MCP client) is still its parent.
const parentEvery = time.Second

// Relay is `jobdeck --serve` on a session: it joins the session as an MCP
// client (starting the session when none is alive) and copies in to the
// session and the session's answers to out, byte for byte, so that the
// agent's MCP session (notifications included) is with the shared core.
// When in ends, or the process that started this one goes away (an MCP
// client that died without closing our stdin), it half-closes the
// connection: the session answers every request it already read, then
// closes, and Relay returns nil. It returns an error when the link to the
// session is lost first.
func Relay(ctx context.Context, opts JoinOptions, in io.Reader, out io.Writer) error {
	opts.Kind = KindMCP
	conn, err := Join(ctx, opts)
	if err != nil {
		return err
	}
	defer conn.Close()
	inDone := make(chan struct{})
	go func() {
		_, _ = io.Copy(conn, in)
		close(inDone)
	}()
	go func() {
		select {
		case <-inDone:
		case <-orphaned(ctx):
		case <-ctx.Done():
		}
		_ = conn.CloseWrite()
	}()
	_, err = io.Copy(out, conn)
	select {
	case <-inDone:
		return nil // the session closed after our input ended: all answered
	default:
	}
	if ctx.Err() != nil {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = errors.New("the session ended (stopped with `jobdeck sessions stop` or a signal, or killed; its log is in the session directory)")
	}
	return fmt.Errorf("%w: %v; restart this MCP server to start or join a session again", ErrLinkLost, err)
}

// orphaned is closed when this process's parent changes (it died and we
// were re-parented), which for an MCP server launched by a client means
// the client is gone even if our stdin stays open.
func orphaned(ctx context.Context) <-chan struct{} {
	ch := make(chan struct{})
	parent := os.Getppid()
	go func() {
		t := time.NewTicker(parentEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if os.Getppid() != parent {
					close(ch)
					return
				}
			}
		}
	}()
	return ch
}
