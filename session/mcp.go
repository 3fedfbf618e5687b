//go:build unix

package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
// directory and environment (from its hello); the client is listed under
// the name its MCP initialize gives.
func (s *server) serveMCP(ctx context.Context, conn *serverConn) error {
	core := clientCore{Table: s.table, dir: string(conn.hello.Dir), env: envStrings(conn.hello.Env)}
	in := &initSniffer{r: conn.r, name: func(name string) { s.rename(conn.client, name) }}
	return serve.RunStdio(ctx, core, in, conn.c)
}

// clientCore is the jobs table as one client's MCP server sees it: a job
// it starts without a directory or an environment gets the client's (a
// job runs where and with what its client runs, never with the session
// process's own).
type clientCore struct {
	*jobs.Table
	dir string
	env []string
}

// Start completes spec with the client's directory and environment.
func (c clientCore) Start(ctx context.Context, spec model.Spec) (model.Report, error) {
	switch {
	case spec.Dir == "":
		spec.Dir = c.dir
	case !filepath.IsAbs(spec.Dir) && c.dir != "":
		spec.Dir = filepath.Join(c.dir, spec.Dir)
	}
	if spec.Env == nil {
		spec.Env = c.env
	}
	return c.Table.Start(ctx, spec)
}

// sniffLines bounds how many lines initSniffer looks at: an initialize
// comes first in every MCP session.
const sniffLines = 8

// initSniffer passes an MCP stream through unchanged and, on the way,
// reads the client's name from its initialize request (clientInfo.name).
type initSniffer struct {
	r     io.Reader
	name  func(string)
	line  []byte
	lines int
	done  bool
}

func (s *initSniffer) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if !s.done && n > 0 {
		s.scan(p[:n])
	}
	return n, err
}

func (s *initSniffer) scan(b []byte) {
	for len(b) > 0 && !s.done {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			if len(s.line)+len(b) > maxHelloBytes {
				s.done = true // not a line we can use: stop looking
				return
			}
			s.line = append(s.line, b...)
			return
		}
		s.line = append(s.line, b[:i]...)
		b = b[i+1:]
		s.look(s.line)
		s.line = s.line[:0]
		if s.lines++; s.lines >= sniffLines {
			s.done = true
		}
	}
}

func (s *initSniffer) look(line []byte) {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			ClientInfo struct {
				Name string `json:"name"`
			} `json:"clientInfo"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) == nil && msg.Method == "initialize" {
		s.done = true
		s.line = nil
		if msg.Params.ClientInfo.Name != "" {
			s.name(msg.Params.ClientInfo.Name)
		}
	}
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
	core := clientCore{Table: s.table, dir: string(h.Dir), env: envStrings(h.Env)}
	go func() {
		errCh <- serve.RunHTTP(ctx, core, serve.HTTPOptions{
			Addr: h.HTTP.Addr, Token: h.HTTP.Token, Log: os.Stderr,
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
