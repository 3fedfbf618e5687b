//go:build unix

package session

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/jobdeck/jobdeck/jobs"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/serve"
)

// serveMCP runs the MCP server of package serve over the real jobs table
// on one relayed connection, until the client's input ends (its stdin
// did) or the session ends. Jobs the agent starts run with the agent's
// directory and environment (from its hello), and its results are typed
// when the hello asks (Hello.Structured); the client is listed under the
// name its MCP initialize gives.
func (s *server) serveMCP(ctx context.Context, conn *serverConn) error {
	core := clientCore{Table: s.table, dir: string(conn.hello.Dir), env: envStrings(conn.hello.Env), grace: conn.hello.Grace}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go watchHangup(ctx, conn.c, func() {
		s.log.printf("client %d (%s) hung up with requests pending: it has left", conn.client.info.ID, conn.client.info.Name)
		cancel()
		conn.c.Close()
	})
	return serve.RunStream(ctx, core, conn.r, conn.c, serve.StreamOptions{
		OnClient:   func(name string) { s.rename(conn.client, name) },
		Structured: conn.hello.Structured,
	})
}

// clientCore is the jobs table as one client's MCP server sees it: a job
// it starts without a directory or an environment gets the client's (a
// job runs where and with what its client runs, never with the session
// process's own).
type clientCore struct {
	*jobs.Table
	dir   string
	env   []string
	grace *time.Duration // the client's --grace, when it gave one
}

// DefaultGrace is the grace of the jobs this client starts without one:
// its --grace, or the session's.
func (c clientCore) DefaultGrace() time.Duration {
	if c.grace != nil {
		return *c.grace
	}
	return c.Table.DefaultGrace()
}

// Start completes spec with the client's directory, environment and
// grace.
func (c clientCore) Start(ctx context.Context, spec model.Spec) (model.Report, error) {
	switch {
	case spec.Dir == "" && c.dir != "":
		// The client's own directory may have gone since it came: say
		// that one is gone, not that a cwd it never gave is missing.
		if _, err := model.CheckDir("", c.dir); err != nil {
			return model.Report{}, err
		}
		spec.Dir = c.dir
	case !filepath.IsAbs(spec.Dir) && c.dir != "":
		spec.Dir = filepath.Join(c.dir, spec.Dir)
	}
	if spec.Env == nil {
		spec.Env = c.env
	}
	if spec.Grace == nil {
		spec.Grace = c.grace
	}
	return c.Table.Start(ctx, spec)
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
	core := clientCore{Table: s.table, dir: string(h.Dir), env: envStrings(h.Env), grace: h.Grace}
	go func() {
		errCh <- serve.RunHTTP(ctx, core, serve.HTTPOptions{
			Addr: h.HTTP.Addr, Token: h.HTTP.Token, Log: os.Stderr, Structured: h.Structured,
			Ready: func(addr string) { addrCh <- addr },
		})
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
