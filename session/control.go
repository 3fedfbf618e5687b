//go:build unix

package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/serve/stdio"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Methods of the control dialect (KindControl).
const (
	methodInfo = "session/info"
	methodStop = "session/stop"
)

// connection frames a connection's JSON-RPC after the hello with the
// go-sdk's IOTransport (newline-delimited JSON).
func connection(ctx context.Context, r io.Reader, w io.Writer, closer io.Closer) (mcp.Connection, error) {
	rc := struct {
		io.Reader
		io.Closer
	}{r, closer}
	wc := struct {
		io.Writer
		io.Closer
	}{w, closer}
	return (&mcp.IOTransport{Reader: rc, Writer: wc, MaxLineLength: maxHelloBytes}).Connect(ctx)
}

// serverConnection is connection for the session's side of a console or
// control connection: a garbage line from the client gets a JSON-RPC
// error (the line filter, serve/stdio) instead of ending the connection.
func serverConnection(ctx context.Context, conn *serverConn) (mcp.Connection, error) {
	_, r, w := stdio.Open(ctx, conn.r, conn.c, func() {})
	return connection(ctx, r, w, conn.c)
}

// serveControl answers `jobdeck sessions`: what the session is, and a
// request to stop it.
func (s *server) serveControl(ctx context.Context, conn *serverConn) error {
	mc, err := serverConnection(ctx, conn)
	if err != nil {
		return err
	}
	p := newPeer(mc, func(ctx context.Context, method string, _ json.RawMessage) (any, error) {
		switch method {
		case methodInfo:
			return s.info(), nil
		case methodStop:
			info := s.info()
			go s.end("stopped by `jobdeck sessions stop`")
			return info, nil
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no method " + method + " on a control connection"}
	}, nil)
	err = p.run(ctx)
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// Live is one live session, as `jobdeck sessions` lists it.
type Live struct {
	Info Info
	// Err is set when the session holds its lock but could not be asked
	// (it is starting or ending, or speaks another protocol).
	Err error
}

// List returns the calling user's live sessions (those whose lock is
// held), oldest first. Sessions that died left files behind; they are not
// listed, and are replaced when next started.
func List(ctx context.Context) ([]Live, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	locks, err := filepath.Glob(filepath.Join(dir, "*.lock"))
	if err != nil {
		return nil, err
	}
	var out []Live
	for _, lp := range locks {
		if !locked(lp) {
			continue
		}
		key := strings.TrimSuffix(filepath.Base(lp), ".lock")
		file := infoFile(dir, key)
		t := Target{Name: file.Name, Worktree: file.Worktree}
		var info Info
		var err error
		switch {
		case file.Ending:
			info, err = file, ErrEnding
		case t.Name == "" && t.Worktree == "":
			info, err = Info{Key: key}, ErrStarting
		default:
			cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			info, err = controlIn(cctx, dir, t, methodInfo)
			cancel()
			if err != nil {
				info = file
			}
		}
		out = append(out, Live{Info: info, Err: err})
	}
	slices.SortFunc(out, func(a, b Live) int { return a.Info.Started.Compare(b.Info.Started) })
	return out, nil
}

// Why a live session is listed without its clients.
var (
	// ErrEnding: the session is stopping its jobs and exits once they are.
	ErrEnding = errors.New("stopping its jobs")
	// ErrStarting: the session holds its lock and has not written its
	// info yet.
	ErrStarting = errors.New("starting")
)

// infoFile reads a session's info file (zero when it has none).
func infoFile(dir, key string) Info {
	var info Info
	if b, err := os.ReadFile(filepath.Join(dir, key+".json")); err == nil {
		_ = json.Unmarshal(b, &info)
	}
	if info.Key == "" {
		info.Key = key
	}
	return info
}

// Stop stops the session of t: it closes its socket, stops every job and
// exits. Stop returns once the session is gone (its lock released), with
// what it was (Info.Ending: it was stopping already, and Info holds only
// its names), or ErrNoSession.
func Stop(ctx context.Context, t Target) (Info, error) {
	dir, err := Dir()
	if err != nil {
		return Info{}, err
	}
	return stopIn(ctx, dir, t)
}

// stopIn is Stop with the session directory given.
func stopIn(ctx context.Context, dir string, t Target) (Info, error) {
	info, err := controlIn(ctx, dir, t, methodStop)
	if err != nil && !errors.Is(err, ErrNoSession) {
		// It holds its lock but will not be asked (another protocol, or
		// no answer): SIGTERM, which a session takes as a stop too.
		pid, serr := signalSession(dir, t.Key())
		if serr != nil {
			return info, fmt.Errorf("%w; and it could not be signalled: %v", err, serr)
		}
		info = Info{Key: t.Key(), Name: t.Name, Worktree: t.Worktree, PID: pid}
	} else if err != nil {
		if !locked(filepath.Join(dir, t.Key()+".lock")) {
			return info, err
		}
		// Its socket is closed but it holds its lock: it is stopping
		// its jobs already. Wait for it as for a stop asked now.
		info = Info{Key: t.Key(), Name: t.Name, Worktree: t.Worktree, Ending: true}
	}
	lp := filepath.Join(dir, t.Key()+".lock")
	for locked(lp) {
		select {
		case <-ctx.Done():
			return info, fmt.Errorf("%s was asked to stop and is still stopping its jobs: %w", t.Phrase(), ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return info, nil
}

// control makes one control call to the session of t, without starting
// one.
func control(ctx context.Context, t Target, method string) (Info, error) {
	dir, err := Dir()
	if err != nil {
		return Info{}, err
	}
	return controlIn(ctx, dir, t, method)
}

// controlIn is control with the session directory given.
func controlIn(ctx context.Context, dir string, t Target, method string) (Info, error) {
	conn, err := joinIn(ctx, dir, JoinOptions{Target: t, Kind: KindControl, NoStart: true, Timeout: 5 * time.Second})
	if err != nil {
		return Info{}, err
	}
	defer conn.Close()
	mc, err := connection(ctx, conn, conn, conn)
	if err != nil {
		return Info{}, err
	}
	p := newPeer(mc, nil, nil)
	go func() { _ = p.run(ctx) }()
	defer p.close()
	var info Info
	if err := p.call(ctx, method, struct{}{}, &info); err != nil {
		return Info{}, err
	}
	return info, nil
}

// shellQuote quotes s for a shell command line when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
