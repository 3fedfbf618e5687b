//go:build unix

package session

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/jobdeck/jobdeck/serve"
)

// serveMCP runs the MCP server of package serve over the real jobs table
// on one relayed connection, until the client's input ends (its stdin
// did) or the session ends.
func (s *server) serveMCP(ctx context.Context, conn *serverConn) error {
	return serve.RunStdio(ctx, s.table, conn.r, conn.c)
}

// startHTTP serves MCP over streamable HTTP on the address the client
// asked for; it returns the address it listens on and a function that
// stops it.
func (s *server) startHTTP(h Hello) (string, func(), error) {
	if h.HTTP == nil {
		return "", nil, fmt.Errorf("an http client must say where to serve")
	}
	ctx, cancel := context.WithCancel(context.Background())
	addrCh := make(chan string, 1)
	errCh := make(chan error, 1)
	go func() {
		errCh <- serve.RunHTTP(ctx, s.table, serve.HTTPOptions{Addr: h.HTTP.Addr, Token: h.HTTP.Token, Ready: func(addr string) { addrCh <- addr }})
	}()
	select {
	case addr := <-addrCh:
		return addr, func() {
			cancel()
			select {
			case <-errCh:
			case <-time.After(3 * time.Second):
			}
		}, nil
	case err := <-errCh:
		cancel()
		return "", nil, err
	}
}

// serveHTTP keeps an HTTP client attached until it disconnects: the HTTP
// server runs for as long as its `jobdeck --serve --http` does.
func (s *server) serveHTTP(ctx context.Context, conn *serverConn) error {
	buf := make([]byte, 512)
	for {
		if _, err := conn.r.Read(buf); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			return nil
		}
	}
}
