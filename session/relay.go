//go:build unix

package session

import (
	"bufio"
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
//
// When in ends, or the process that started this one goes away (an MCP
// client that died without closing our stdin), it half-closes the
// connection: the session answers every request it already read, then
// closes, and Relay returns nil. When ctx ends (SIGTERM, SIGHUP: the
// client wants this process gone) it closes the connection at once, the
// session takes that as the client leaving, and Relay returns nil. It
// returns an error when the link to the session is lost first. Whenever
// it returns before the session answered a call, it answers that call
// itself with a JSON-RPC error that says why (relayCalls).
func Relay(ctx context.Context, opts JoinOptions, in io.Reader, out io.Writer) error {
	opts.Kind = KindMCP
	conn, err := Join(ctx, opts)
	if err != nil {
		return err
	}
	defer conn.Close()
	calls := newRelayCalls()
	inDone := make(chan struct{})
	go func() {
		calls.copyCalls(conn, in)
		close(inDone)
	}()
	go func() {
		select {
		case <-inDone:
		case <-orphaned(ctx):
		case <-ctx.Done():
			_ = conn.Close() // leaving now: the session cancels our calls
			return
		}
		_ = conn.CloseWrite()
	}()
	err = calls.copyAnswers(out, conn)
	select {
	case <-inDone:
		if ctx.Err() == nil {
			return nil // the session closed after our input ended: all answered
		}
	default:
	}
	if ctx.Err() != nil {
		calls.answerAll(out, "jobdeck --serve was told to exit (a signal) before the session answered")
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = errors.New("the session ended (stopped with `jobdeck sessions stop` or a signal, or killed; its log is in the session directory)")
	}
	calls.answerAll(out, "the jobdeck session ended before it answered: "+err.Error()+"; restart this MCP server")
	return fmt.Errorf("%w: %v; restart this MCP server to start or join a session again", ErrLinkLost, err)
}

// orphaned is closed when this process's parent changes (the process that
// started it died; Linux reparents it to a subreaper or init).
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

// eachLine gives pass every byte of r as it comes, in chunks, and calls f
// with each whole line (newline included; a last line without one too)
// before pass gets the line's last chunk. A line over keep bytes is not
// given to f.
// It returns pass's error or r's (nil at EOF).
func eachLine(r io.Reader, keep int, f func(line []byte), pass func(chunk []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !long && len(line)+len(chunk) <= keep {
			line = append(line, chunk...)
		} else {
			long, line = true, line[:0]
		}
		end := err == nil || (err != nil && !errors.Is(err, bufio.ErrBufferFull) && len(line) > 0)
		if end && !long {
			f(line) // before its last bytes pass: its answer cannot overtake it
		}
		if len(chunk) > 0 {
			if perr := pass(chunk); perr != nil {
				return perr
			}
		}
		if end || err == nil {
			line, long = line[:0], false
		}
		switch {
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return nil
		}
		return err
	}
}
