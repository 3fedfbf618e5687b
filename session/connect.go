//go:build unix

package session

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// JoinOptions say which session to join (starting it when none is alive)
// and who joins.
type JoinOptions struct {
	Target Target
	Kind   Kind
	// Name is how the client is shown; "" means the kind.
	Name string
	// Dir and Env are the client's working directory and environment,
	// which jobs it starts get; "" and nil mean this process's.
	Dir string
	Env []string
	// HTTP is required for KindHTTP.
	HTTP *HTTPParams
	// NoStart makes Join fail with ErrNoSession instead of starting a
	// session (for `jobdeck sessions`).
	NoStart bool
	// Linger and Grace configure a session this client starts (see
	// Config); they do not change a running one.
	Linger time.Duration
	Grace  *time.Duration
	// JobGrace, when set, is the grace of this client's jobs that do not
	// name one (see Hello.Grace).
	JobGrace *time.Duration
	// Structured asks for typed results (see Hello.Structured).
	Structured bool
	// Exe starts a session process; "" means this binary.
	Exe string
	// Timeout bounds the whole join; zero means a minute plus six (a
	// session that is ending first stops its jobs, up to its grace).
	Timeout time.Duration
	// Joined, when set, is called once the join succeeded, with whether
	// this client started the session.
	Joined func(w Welcome, started bool)
	// Waiting, when set, is called once when the join has waited a second
	// for a session that holds its lock but does not answer yet (one that
	// is stopping its jobs), with a sentence to show the user.
	Waiting func(msg string)
}

// ErrNoSession is returned by Join with NoStart when no session is alive.
var ErrNoSession = errors.New("no live session")

// ErrVersion is wrapped by Join's error when the session speaks another
// protocol; the message names both versions and how to stop the old
// session.
var ErrVersion = errors.New("the session runs another version of jobdeck")

// Conn is a client's connection to its session, after the hello.
type Conn struct {
	c *net.UnixConn
	r *bufio.Reader // the rest of what the session sends
	// Welcome is the session's answer to the hello.
	Welcome Welcome
	// Started reports that this client started the session.
	Started bool
}

// Read reads what the session sent after its welcome.
func (c *Conn) Read(p []byte) (int, error) { return c.r.Read(p) }

// Write writes to the session.
func (c *Conn) Write(p []byte) (int, error) { return c.c.Write(p) }

// CloseWrite half-closes the connection: the session reads EOF, and can
// still answer.
func (c *Conn) CloseWrite() error { return c.c.CloseWrite() }

// Close closes the connection; for an attached client, that is leaving.
func (c *Conn) Close() error { return c.c.Close() }

// Join connects to the session of opts.Target, starting it when none is
// alive, and says hello. The algorithm is tmux's: connect; when nothing
// answers, take the session's lock; holding it means no session is alive,
// so remove what a dead one left and start one (handing it the lock);
// otherwise a session is starting or stopping: wait and try again.
func Join(ctx context.Context, opts JoinOptions) (*Conn, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	return joinIn(ctx, dir, opts)
}

// joinIn is Join with the session directory given.
func joinIn(ctx context.Context, dir string, opts JoinOptions) (*Conn, error) {
	cfg := Config{Target: opts.Target, Dir: dir, Linger: opts.Linger, Grace: opts.Grace}
	if err := checkSocketPath(cfg.path(".sock")); err != nil {
		return nil, err
	}
	hello, err := newHello(opts)
	if err != nil {
		return nil, err
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 7 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	told, started := false, false
	pause := 5 * time.Millisecond
	for {
		c, err := dial(ctx, cfg.path(".sock"))
		if err == nil {
			conn, herr := handshake(ctx, c, hello, cfg)
			if herr == nil {
				conn.Started = started
				if opts.Joined != nil {
					opts.Joined(conn.Welcome, started)
				}
				return conn, nil
			}
			c.Close()
			if !errors.Is(herr, errEnding) {
				return nil, herr
			}
		} else if !absent(err) {
			return nil, fmt.Errorf("connect to %s: %w", cfg.Target.Phrase(), err)
		} else if ok, err := startIfFree(cfg, opts); err != nil {
			return nil, err
		} else if ok {
			started = true
			continue
		}
		if opts.NoStart && !locked(cfg.path(".lock")) {
			return nil, fmt.Errorf("%w for %s", ErrNoSession, cfg.Target.Label())
		}
		if !told && opts.Waiting != nil && time.Since(start) > time.Second {
			told = true
			opts.Waiting(fmt.Sprintf("%s is busy (starting, or stopping its jobs); waiting…", cfg.Target.Phrase()))
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the session of %s holds its lock but does not answer (waited %v); `jobdeck sessions` shows it, and its log is %s",
				cfg.Target.Label(), time.Since(start).Round(time.Second), cfg.path(".log"))
		case <-time.After(pause):
		}
		pause = min(pause*2, 100*time.Millisecond)
	}
}

// startIfFree starts a session when its lock is free (no session alive).
// It reports whether it started one.
func startIfFree(cfg Config, opts JoinOptions) (bool, error) {
	if opts.NoStart {
		return false, nil
	}
	lf, err := lockFile(cfg.path(".lock"))
	if err != nil {
		return false, err
	}
	defer lf.Close()
	ok, err := tryLock(lf)
	if err != nil || !ok || !lockIsPath(lf, cfg.path(".lock")) {
		return false, err
	}
	// No session is alive: what a dead one left is stale.
	_ = os.Remove(cfg.path(".sock"))
	_ = os.Remove(cfg.path(".json"))
	if err := spawn(cfg, lf, opts.Exe); err != nil {
		return false, fmt.Errorf("start a session for %s: %w", cfg.Target.Label(), err)
	}
	return true, nil
}

// absent reports a dial error that means nobody listens: no socket file,
// or a socket nobody accepts on (a dead session's).
func absent(err error) bool {
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED)
}

func dial(ctx context.Context, path string) (*net.UnixConn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, err
	}
	return c.(*net.UnixConn), nil
}

// errEnding is the session's answer while it shuts down: try again (a new
// one starts once it is gone).
var errEnding = errors.New("the session is ending")

// handshakeTimeout bounds the hello's round trip.
const handshakeTimeout = 10 * time.Second

// handshake says hello on c and reads the welcome.
func handshake(ctx context.Context, c *net.UnixConn, hello Hello, cfg Config) (*Conn, error) {
	params, err := json.Marshal(hello)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(handshakeTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = c.SetDeadline(deadline)
	defer c.SetDeadline(time.Time{})
	if err := writeMessage(c, &jsonrpc.Request{ID: mustID(1), Method: helloMethod, Params: params}); err != nil {
		return nil, fmt.Errorf("say hello to %s: %w", cfg.Target.Phrase(), err)
	}
	r := bufio.NewReaderSize(c, 64<<10)
	line, err := readLine(r, maxHelloBytes)
	if err != nil {
		return nil, fmt.Errorf("read the session's welcome (%s): %w", cfg.Target.Label(), err)
	}
	msg, err := jsonrpc.DecodeMessage(line)
	resp, ok := msg.(*jsonrpc.Response)
	if err != nil || !ok {
		return nil, fmt.Errorf("%s answered the hello with something else than a JSON-RPC response; is %s a jobdeck session socket?", cfg.Target.Phrase(), cfg.path(".sock"))
	}
	if resp.Error != nil {
		return nil, helloError(resp.Error, cfg)
	}
	var w Welcome
	if err := json.Unmarshal(resp.Result, &w); err != nil {
		return nil, fmt.Errorf("decode the session's welcome: %w", err)
	}
	if w.Protocol != Protocol && hello.Kind != KindControl {
		return nil, versionError(w.Protocol, w.Version, cfg)
	}
	return &Conn{c: c, r: r, Welcome: w}, nil
}

// helloError words a refused hello.
func helloError(err error, cfg Config) error {
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		return err
	}
	switch we.Code {
	case codeVersion:
		var d versionData
		_ = json.Unmarshal(we.Data, &d)
		return versionError(d.Protocol, d.Version, cfg)
	case codeRefused:
		if we.Message == errEnding.Error() {
			return errEnding
		}
	}
	return fmt.Errorf("%s refused this client: %s", cfg.Target.Phrase(), we.Message)
}

// versionError names both versions and the command that stops the old
// session.
func versionError(protocol int, version string, cfg Config) error {
	return fmt.Errorf("%w: this jobdeck is %s (protocol %d), the session of %s runs jobdeck %s (protocol %d); stop that session with `jobdeck sessions stop %s` (its jobs stop too), then start jobdeck again",
		ErrVersion, Version(), Protocol, cfg.Target.Label(), version, protocol, stopArg(cfg.Target))
}

// stopArg is what `jobdeck sessions stop` takes to name t.
func stopArg(t Target) string {
	if t.Name != "" {
		return t.Name
	}
	return shellQuote(t.Worktree)
}

// newHello builds the client's hello.
func newHello(opts JoinOptions) (Hello, error) {
	dir := opts.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return Hello{}, fmt.Errorf("find the working directory: %w", err)
		}
		dir = wd
	}
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	name := opts.Name
	if name == "" {
		name = string(opts.Kind)
	}
	return Hello{
		Protocol: Protocol, Version: Version(), Kind: opts.Kind, Name: name,
		PID: os.Getpid(), Dir: []byte(dir), Env: envBytes(env), HTTP: opts.HTTP,
		Grace: opts.JobGrace, Structured: opts.Structured,
	}, nil
}

// maxSocketPath is the longest path a Unix socket address holds: sun_path
// is 108 bytes on Linux, 104 on macOS and the BSDs, with its terminating
// NUL (unix(7)); the smaller bound holds everywhere.
const maxSocketPath = 103

// checkSocketPath refuses a socket path the kernel cannot bind or connect
// to, in words that say what to change (connect(2) says only EINVAL).
func checkSocketPath(p string) error {
	if len(p) > maxSocketPath {
		return fmt.Errorf("the session socket %s is %d bytes long, and a Unix socket path holds at most %d: set %s to a shorter directory (e.g. /tmp/jobdeck-%d)", p, len(p), maxSocketPath, EnvDir, os.Geteuid())
	}
	return nil
}
