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
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/jobs"
	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The phases of a session's life (see the package doc).
type phase uint8

const (
	// phaseLingering: no client is attached; the linger timer runs.
	phaseLingering phase = iota
	// phaseAttached: at least one client is attached.
	phaseAttached
	// phaseEnding: the session closed its socket and is stopping its
	// jobs; hellos are refused with errEnding.
	phaseEnding
)

// shutdownMargin is how long, beyond the grace, the session waits for
// every tree to be empty before it exits anyway (the supervisors finish
// the stops on their own).
const shutdownMargin = 10 * time.Second

// server is the session process's state.
type server struct {
	cfg     Config
	uid     int
	pid     int
	started time.Time
	table   *jobs.Table
	log     *logger

	lnMu sync.Mutex
	ln   *net.UnixListener

	// infoMu orders the writes of the info file: each takes its snapshot
	// and writes it while holding it, so the last write is of the newest
	// state, and no two writers share the temporary file.
	infoMu sync.Mutex

	mu      sync.Mutex
	phase   phase
	clients map[int]*client // attached clients and control clients
	nextID  int
	linger  *time.Timer
	// attachedOnce: a client has attached (until then the linger is at
	// least firstClientWait).
	attachedOnce bool
	watch        map[int]func() // consoles told when the client list changes
	reason       string         // why the session ends
	sizes        sizes          // the consoles' wishes for their jobs' terminal sizes
	stopCh       chan struct{}  // closed when the session is to end
	conns        sync.WaitGroup // connection handlers
}

// client is one connection after its hello.
type client struct {
	info     ClientInfo
	attached bool // counts for the session's life (not control)
	close    func()
}

// newServer makes the jobs table and listens on the session's socket.
func newServer(cfg Config) (*server, error) {
	cfg.Linger = min(max(cfg.Linger, 0), MaxLinger)
	table, err := jobs.New(jobs.Options{Dir: cfg.Target.Worktree, Grace: cfg.Grace})
	if err != nil {
		return nil, err
	}
	s := &server{
		cfg: cfg, uid: os.Geteuid(), pid: os.Getpid(), started: time.Now(),
		table: table, log: newLogger(os.Stderr),
		clients: map[int]*client{}, watch: map[int]func(){}, stopCh: make(chan struct{}),
	}
	ln, err := listen(cfg.path(".sock"))
	if err != nil {
		return nil, err
	}
	s.ln = ln
	if err := s.writeInfo(); err != nil {
		ln.Close()
		return nil, err
	}
	return s, nil
}

// listen binds the session's socket, 0600 from the start: the umask is
// tightened around bind(2), which creates the file (the directory is
// 0700 anyway; this is defence in depth).
func listen(path string) (*net.UnixListener, error) {
	old := syscall.Umask(0o177)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	syscall.Umask(old)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("chmod the session socket: %w", err)
	}
	return ln, nil
}

// run serves until the session ends, then stops every job. It returns the
// process's exit code.
func (s *server) run(sigs <-chan os.Signal) int {
	s.mu.Lock()
	s.startLingerLocked() // the client that started us connects next
	s.mu.Unlock()
	go s.acceptLoop(s.listener())
	go s.watchSocket()
	select {
	case <-s.stopCh:
	case sig := <-sigs:
		name := sig.String()
		if n, ok := sig.(syscall.Signal); ok {
			name = unix.SignalName(n)
		}
		s.end("stopped by " + name)
	}
	return s.shutdown()
}

func (s *server) listener() *net.UnixListener {
	s.lnMu.Lock()
	defer s.lnMu.Unlock()
	return s.ln
}

// end asks the session to end (once); reason is logged and told to the
// clients still attached.
func (s *server) end(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.phase == phaseEnding {
		return
	}
	s.phase = phaseEnding
	s.reason = reason
	if s.linger != nil {
		s.linger.Stop()
	}
	close(s.stopCh)
}

// shutdown closes the socket (new clients start a new session once this
// one is gone), lets the clients go, and stops every job. The lock is
// released when the process exits.
func (s *server) shutdown() int {
	s.log.printf("ending: %s", s.reason)
	s.lnMu.Lock()
	s.ln.Close() // unlinks the socket
	s.lnMu.Unlock()
	s.writeEnding()
	s.mu.Lock()
	var closes []func()
	for _, c := range s.clients {
		closes = append(closes, c.close)
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range closes {
		wg.Go(c)
	}
	waitGroup(&wg, 2*time.Second)
	grace := model.DefaultGrace
	if s.cfg.Grace != nil {
		grace = *s.cfg.Grace
	}
	ctx, cancel := context.WithTimeout(context.Background(), grace+shutdownMargin)
	defer cancel()
	code := 0
	if err := s.table.Close(ctx); err != nil {
		s.log.warnf("stopping jobs: %v", err)
		code = 1
	}
	waitGroup(&s.conns, 2*time.Second)
	return code
}

// waitGroup waits for wg, at most d.
func waitGroup(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// firstClientWait is how long a new session waits for its first client
// (the one that started it connects at once; one that died meanwhile never
// does), whatever its linger.
const firstClientWait = 10 * time.Second

// startLingerLocked arms the linger timer. s.mu held.
func (s *server) startLingerLocked() {
	if s.linger != nil {
		s.linger.Stop()
	}
	d := s.cfg.Linger
	if !s.attachedOnce {
		d = max(d, firstClientWait)
	}
	s.linger = time.AfterFunc(d, func() {
		s.mu.Lock()
		idle := s.phase == phaseLingering
		s.mu.Unlock()
		if idle {
			s.end(fmt.Sprintf("no client for %v", s.cfg.Linger))
		}
	})
}

// acceptLoop accepts connections until the listener closes.
func (s *server) acceptLoop(ln *net.UnixListener) {
	pause := 5 * time.Millisecond
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors and the like: say it once per
			// kind, back off, go on.
			s.log.once("accept:"+errKind(err), "accepting a connection: %v (said once)", err)
			time.Sleep(pause)
			pause = min(pause*2, time.Second)
			continue
		}
		pause = 5 * time.Millisecond
		s.conns.Add(1)
		go func() {
			defer s.conns.Done()
			defer s.survive(c)
			s.handle(c)
		}()
	}
}

// survive ends a connection whose handler panicked, instead of the
// session: a bug met by one client must not end every job of every
// client. The panic and its stack go to the session's log.
func (s *server) survive(c net.Conn) {
	if p := recover(); p != nil {
		s.log.warnf("a connection's handler panicked (a jobdeck bug; the connection is closed, the session goes on): %v\n%s", p, debug.Stack())
		c.Close()
	}
}

// errKind names an error for once-per-kind logging.
func errKind(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return fmt.Sprintf("%T", err)
}

// handle checks a connection's peer, reads its hello and serves it.
func (s *server) handle(c *net.UnixConn) {
	defer c.Close()
	uid, pid, err := peerCred(c)
	if err != nil || uid != s.uid {
		// Another user (or an unknown one): refused before reading a
		// byte. Logged once per uid, not once per attempt.
		why := ""
		if err != nil {
			why = " (" + err.Error() + ")"
		}
		s.log.once(fmt.Sprintf("peer:%d", uid), "refused a connection from uid %d (pid %d): only uid %d may use this session%s", uid, pid, s.uid, why)
		return
	}
	_ = c.SetDeadline(time.Now().Add(handshakeTimeout))
	br := bufio.NewReaderSize(c, 64<<10)
	req, hello, err := readHello(br)
	if err != nil {
		if req != nil && req.IsCall() {
			s.refuse(c, req, jsonrpc.CodeInvalidRequest, err.Error(), nil)
		}
		return
	}
	if !validKind(hello.Kind) {
		s.refuse(c, req, codeRefused, fmt.Sprintf("unknown client kind %q: a client is %q, %q, %q or %q", hello.Kind, KindConsole, KindMCP, KindHTTP, KindControl), nil)
		return
	}
	if hello.Protocol != Protocol && hello.Kind != KindControl {
		data, _ := json.Marshal(versionData{Protocol: Protocol, Version: Version(), Key: s.cfg.Target.Key(), Label: s.cfg.Target.Label()})
		s.refuse(c, req, codeVersion, fmt.Sprintf("this session speaks protocol %d, the client %d", Protocol, hello.Protocol), data)
		s.log.once(fmt.Sprintf("version:%d", hello.Protocol), "refused a client of protocol %d (version %s)", hello.Protocol, hello.Version)
		return
	}
	if pid > 0 {
		hello.PID = pid // the kernel's word over the client's
	}
	cl, err := s.admit(hello, c)
	if err != nil {
		s.refuse(c, req, codeRefused, err.Error(), nil)
		return
	}
	defer s.leave(cl)
	w := Welcome{Protocol: Protocol, Version: Version(), Client: cl.info.ID, Info: s.info()}
	var serveFn func(ctx context.Context, conn *serverConn) error
	switch hello.Kind {
	case KindControl:
		serveFn = s.serveControl
	case KindMCP:
		serveFn = s.serveMCP
	case KindConsole:
		serveFn = s.serveConsole
	case KindHTTP:
		addr, stopHTTP, err := s.startHTTP(hello)
		if err != nil {
			s.refuse(c, req, codeRefused, err.Error(), nil)
			return
		}
		defer stopHTTP()
		w.HTTPAddr = addr
		s.rename(cl, "http "+addr)
		serveFn = s.serveHTTP
	}
	if err := s.welcome(c, req, w); err != nil {
		return
	}
	_ = c.SetDeadline(time.Time{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conn := &serverConn{c: c, r: br, hello: hello, client: cl, ctx: ctx}
	s.setClose(cl, func() { cancel(); c.Close() })
	if err := serveFn(ctx, conn); err != nil && !errors.Is(err, context.Canceled) {
		s.log.warnf("client %d (%s): %v", cl.info.ID, cl.info.Name, err)
	}
}

// serverConn is one connection as a kind's server sees it.
type serverConn struct {
	c      *net.UnixConn
	r      *bufio.Reader // what the client sends after its hello
	hello  Hello
	client *client
	ctx    context.Context
}

// refuse answers a hello with an error.
func (s *server) refuse(c net.Conn, req *jsonrpc.Request, code int64, msg string, data json.RawMessage) {
	_ = writeMessage(c, &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: code, Message: msg, Data: data}})
}

// welcome answers a hello with the session's welcome.
func (s *server) welcome(c net.Conn, req *jsonrpc.Request, w Welcome) error {
	raw, err := json.Marshal(w)
	if err != nil {
		return err
	}
	return writeMessage(c, &jsonrpc.Response{ID: req.ID, Result: raw})
}
