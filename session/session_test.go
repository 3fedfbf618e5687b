//go:build unix

package session

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// Two agents in one worktree share one core: the second sees the first's
// job, reads its output, and is pointed at it when it starts the same
// command. When both leave, the session lingers, stops the job and exits.
func TestTwoAgentsShareJobs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, _ := w.agent("agent-a", "--linger", "1s", "--grace", "1s")
	cmd := w.job("echo hello from a; sleep 300")
	out := w.call(a, "background", map[string]any{"command": cmd}, false)
	if !strings.Contains(out, "hello from a") {
		t.Fatalf("background: %s", out)
	}
	b, _ := w.agent("agent-b")
	list := w.call(b, "job_status", map[string]any{}, false)
	if !strings.Contains(list, "job 0 running") {
		t.Fatalf("agent b's list does not show agent a's job:\n%s", list)
	}
	rep := w.call(b, "job_status", map[string]any{"id": 0}, false)
	if !strings.Contains(rep, "> hello from a") {
		t.Fatalf("agent b reads job 0:\n%s", rep)
	}
	dup := w.call(b, "background", map[string]any{"command": cmd}, true)
	if !strings.Contains(dup, "job 0") {
		t.Fatalf("the duplicate guard should point agent b at job 0:\n%s", dup)
	}
	if i, ok := w.info(); !ok || len(i.Clients) != 2 {
		t.Fatalf("the session should list two clients: %+v", i)
	}
	a.Close()
	b.Close()
	// linger 1 s + grace 1 s, on a busy machine.
	w.noLeftovers(15 * time.Second)
}

// SIGKILL of the session process stops every tree through the supervisors
// (setsid'd and double-forked children included), and the next jobdeck
// starts a new session cleanly over the dead one's socket and lock.
func TestSessionSIGKILL(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, _ := w.agent("agent", "--grace", "1s")
	tree := w.job(`(setsid sleep 301 &); ( (sleep 302 &) & ); echo up; sleep 303`)
	if _, err := exec.LookPath("setsid"); err != nil {
		tree = w.job(`( (sleep 302 &) & ); echo up; sleep 303`)
	}
	w.call(a, "background", map[string]any{"command": tree}, false)
	waitFor(t, 10*time.Second, "the job's processes", func() bool { return len(w.marked()) >= 3 })
	pid := w.sessionPID()
	if pid == 0 {
		t.Fatal("no live session")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	waitFor(t, 15*time.Second, "the job's tree to be gone", func() bool { return len(w.marked()) == 0 })
	t.Logf("tree gone %v after SIGKILL of the session", time.Since(start).Round(time.Millisecond))
	if time.Since(start) > 3*time.Second+time.Second {
		t.Errorf("the tree took %v to go; want within grace (1 s) + 2 s", time.Since(start))
	}
	// The dead session left its socket; the next client starts anew.
	sock := filepath.Join(w.sdir, Target{Worktree: w.wt}.Key()+".sock")
	if _, err := os.Lstat(sock); err != nil {
		t.Logf("note: the dead session's socket is already gone (%v)", err)
	}
	c, _ := w.agent("agent-2", "--linger", "1s")
	if out := w.call(c, "job_status", map[string]any{}, false); !strings.Contains(out, "no jobs") {
		t.Fatalf("a new session should have no jobs:\n%s", out)
	}
	if p := w.sessionPID(); p == 0 || p == pid {
		t.Fatalf("want a new session, have pid %d (old %d)", p, pid)
	}
}

// SIGKILL of every client at once counts as leaving: the session lingers,
// then stops the jobs (setsid'd, double-forked and TERM-ignoring children
// included) and exits, within linger + grace + 2 s.
func TestClientsKilledAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, ca := w.agent("agent-a", "--linger", "1s", "--grace", "1s")
	b, cb := w.agent("agent-b")
	tree := `( (sleep 302 &) & ); echo up; sleep 303`
	if _, err := exec.LookPath("setsid"); err == nil {
		tree = `(setsid sleep 301 &); ` + tree
	}
	w.call(a, "background", map[string]any{"command": w.job(tree)}, false)
	w.call(b, "background", map[string]any{"command": w.job("trap '' TERM; sleep 304")}, false)
	waitFor(t, 10*time.Second, "the jobs' processes", func() bool { return len(w.marked()) >= 4 })
	_ = ca.Process.Kill()
	_ = cb.Process.Kill()
	start := time.Now()
	// linger 1 s + grace 1 s + 2 s; the bound is coarse (a busy machine).
	w.noLeftovers(15 * time.Second)
	t.Logf("every tree and the session gone %v after SIGKILL of every client (linger 1 s, grace 1 s)", time.Since(start).Round(time.Millisecond))
	if d := time.Since(start); d > 4*time.Second+3*time.Second {
		t.Errorf("took %v; want about linger + grace + 2 s = 4 s", d)
	}
}

// Clients started at the same instant end up in one session.
func TestSimultaneousStart(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	const n = 4
	var wg sync.WaitGroup
	outs := make([]string, n)
	for i := range n {
		wg.Go(func() {
			cs, _ := w.agent(fmt.Sprintf("agent-%d", i), "--linger", "1s", "--grace", "1s")
			outs[i] = w.call(cs, "background", map[string]any{"command": w.job(fmt.Sprintf("echo %d; sleep 300", i))}, false)
		})
	}
	wg.Wait()
	i, err := controlIn(t.Context(), w.sdir, Target{Worktree: w.wt}, methodInfo)
	if err != nil {
		t.Fatal(err)
	}
	if len(i.Clients) != n || i.Running != n {
		t.Fatalf("want one session with %d clients and %d jobs, have %+v\n%v", n, n, i, outs)
	}
	ents, _ := filepath.Glob(filepath.Join(w.sdir, "*.sock"))
	if len(ents) != 1 {
		t.Fatalf("want one socket, have %v", ents)
	}
}

// The directory is 0700 and the socket, lock, info and log 0600; a
// directory with another mode, a symbolic link or another owner is
// refused with a message that says what to fix.
func TestModes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, _ := w.agent("agent", "--linger", "1s")
	w.call(a, "job_status", map[string]any{}, false)
	key := Target{Worktree: w.wt}.Key()
	for ext, want := range map[string]os.FileMode{".sock": 0o600, ".lock": 0o600, ".json": 0o600, ".log": 0o600} {
		st, err := os.Lstat(filepath.Join(w.sdir, key+ext))
		if err != nil {
			t.Errorf("%s: %v", ext, err)
			continue
		}
		if got := st.Mode().Perm(); got != want {
			t.Errorf("%s has mode %04o, want %04o", ext, got, want)
		}
	}
	a.Close()

	bad := t.TempDir()
	if err := os.Chmod(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := w.runWith(bad, "--serve")
	if err == nil || !strings.Contains(out, "chmod 700") {
		t.Errorf("a 0755 session directory: err %v, output %q; want a refusal that says chmod 700", err, out)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(w.sdir, link); err != nil {
		t.Fatal(err)
	}
	out, err = w.runWith(link, "--serve")
	if err == nil || !strings.Contains(out, "symbolic link") {
		t.Errorf("a symlinked session directory: err %v, output %q", err, out)
	}
	if os.Geteuid() == 0 {
		other := t.TempDir()
		if err := os.Chmod(other, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(other, otherUID(), otherUID()); err != nil {
			t.Fatal(err)
		}
		out, err = w.runWith(other, "--serve")
		if err == nil || !strings.Contains(out, "not to you") {
			t.Errorf("a session directory of another uid: err %v, output %q", err, out)
		}
	}
}

// runWith runs jobdeck with another session directory and stdin closed.
func (w *world) runWith(sdir string, args ...string) (string, error) {
	c := exec.Command(w.bin, args...)
	c.Dir = w.wt
	c.Env = append(os.Environ(), EnvDir+"="+sdir)
	out, err := c.CombinedOutput()
	return string(out), err
}

// otherUID is a uid no user has, for a throwaway "other user".
func otherUID() int {
	passwd, _ := os.ReadFile("/etc/passwd")
	for uid := 61000 + os.Getpid()%1000; ; uid++ {
		if !strings.Contains(string(passwd), fmt.Sprintf(":%d:", uid)) {
			return uid
		}
	}
}

// Another uid can neither reach the socket (the directory is 0700) nor,
// when it can reach it, be served: the session closes its connection
// before reading a byte and logs it once.
func TestOtherUIDRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to run a client as a throwaway second uid")
	}
	t.Parallel()
	w := newWorld(t)
	a, _ := w.agent("agent", "--linger", "1s")
	w.call(a, "job_status", map[string]any{}, false)
	sock := filepath.Join(w.sdir, Target{Worktree: w.wt}.Key()+".sock")
	uid := otherUID()
	self := exposedTestBinary(t)
	asOther := func() string {
		c := exec.Command(self)
		c.Env = append(os.Environ(), roleEnv+"=dial", "JDTEST_SOCKET="+sock)
		c.Dir = "/"
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
		out, err := c.CombinedOutput()
		if len(out) == 0 && err != nil {
			t.Fatalf("run the test binary as uid %d: %v", uid, err)
		}
		return string(out)
	}
	if out := asOther(); !strings.Contains(out, "permission denied") {
		t.Errorf("uid %d through the 0700 directory: %q; want permission denied", uid, out)
	}
	// Open the way on purpose: the session itself must still refuse.
	parent := filepath.Dir(w.sdir)
	if st, err := os.Stat(parent); err == nil {
		defer os.Chmod(parent, st.Mode().Perm())
		_ = os.Chmod(parent, 0o711)
	}
	if err := os.Chmod(w.sdir, 0o711); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sock, 0o666); err != nil {
		t.Fatal(err)
	}
	out := asOther()
	_ = os.Chmod(w.sdir, 0o700)
	_ = os.Chmod(sock, 0o600)
	t.Logf("as uid %d with the socket reachable: %s", uid, strings.TrimSpace(out))
	if !strings.Contains(out, "error:") || strings.Contains(out, "answer:") {
		t.Errorf("uid %d with the socket reachable was served: %q", uid, out)
	}
	log, _ := os.ReadFile(filepath.Join(w.sdir, Target{Worktree: w.wt}.Key()+".log"))
	if !strings.Contains(string(log), fmt.Sprintf("refused a connection from uid %d", uid)) {
		t.Errorf("the refusal is not in the session's log:\n%s", log)
	}
	// The owner's client goes on.
	w.call(a, "job_status", map[string]any{}, false)
}

// A client meeting a session of another protocol version gets an error
// naming both versions and the command that stops the old session.
func TestVersionMismatch(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	key := Target{Worktree: w.wt}.Key()
	lf, err := lockFile(filepath.Join(w.sdir, key+".lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	if ok, err := tryLock(lf); !ok || err != nil {
		t.Fatalf("lock: %v %v", ok, err)
	}
	ln, err := net.Listen("unix", filepath.Join(w.sdir, key+".sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go refuseAsOldVersion(ln)
	out, err := w.runWith(w.sdir, "--serve")
	if err == nil {
		t.Fatalf("jobdeck joined a session of protocol 99: %s", out)
	}
	for _, want := range []string{"protocol 99", "v9.9.9", fmt.Sprintf("protocol %d", Protocol), "jobdeck sessions stop"} {
		if !strings.Contains(out, want) {
			t.Errorf("the error does not say %q:\n%s", want, out)
		}
	}
}

// dialAndHello is the "dial" role: connect, say hello, read one line.
func dialAndHello(sock string) (string, error) {
	c, err := net.Dial("unix", sock)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	params, _ := json.Marshal(Hello{Protocol: Protocol, Kind: KindControl})
	if err := writeMessage(c, &jsonrpc.Request{ID: mustID(1), Method: helloMethod, Params: params}); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return "", err
	}
	return line, nil
}

// exposedTestBinary copies the test binary where another uid may run it
// (the build cache's directories are private).
func exposedTestBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(testkit.BinDir(t), "session.test")
	exposeOnce.Do(func() {
		b, err := os.ReadFile(self)
		if err == nil {
			err = os.WriteFile(dst, b, 0o755)
		}
		exposeErr = err
	})
	if exposeErr != nil {
		t.Fatal(exposeErr)
	}
	return dst
}

var (
	exposeOnce sync.Once
	exposeErr  error
)

// `jobdeck --serve --http` joins the session too: an agent over HTTP (with
// the token) and one over stdio share jobs; when the HTTP client process
// ends, the session stops serving HTTP.
func TestHTTPJoinsSession(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	h, cmd, endpoint, hc := w.httpAgent("http-agent")
	defer h.Close()
	w.call(h, "background", map[string]any{"command": w.job("echo over http; sleep 300")}, false)
	s, _ := w.agent("stdio-agent")
	if out := w.call(s, "job_status", map[string]any{"id": 0}, false); !strings.Contains(out, "over http") {
		t.Fatalf("the stdio agent does not see the HTTP agent's job:\n%s", out)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	_ = cmd.Wait()
	waitFor(t, 10*time.Second, "the session to stop serving HTTP", func() bool {
		resp, err := hc.Get(endpoint)
		if err == nil {
			resp.Body.Close()
		}
		return err != nil
	})
	s.Close()
	h.Close()
	w.noLeftovers(15 * time.Second)
}

// httpAgent starts `jobdeck --serve --http 127.0.0.1:0 --linger 1s
// --grace 1s args…` and connects an MCP client called name to where it
// says it serves; it returns the client, the command (killed when t
// ends), the endpoint and the HTTP client that carries the token.
func (w *world) httpAgent(name string, args ...string) (*mcp.ClientSession, *exec.Cmd, string, *http.Client) {
	t := w.t
	t.Helper()
	token := "session-test-token-0123456789abcdef"
	cmd := w.cmd(append([]string{"--serve", "--http", "127.0.0.1:0", "--linger", "1s", "--grace", "1s"}, args...)...)
	cmd.Env = append(cmd.Env, "JOBDECK_TOKEN="+token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if i := strings.Index(sc.Text(), "http://"); i >= 0 {
				url <- strings.Fields(sc.Text()[i:])[0]
			}
		}
	}()
	var endpoint string
	select {
	case endpoint = <-url:
	case <-time.After(20 * time.Second):
		t.Fatal("jobdeck --serve --http did not say where it serves")
	}
	hc := &http.Client{Transport: bearer{token}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect over HTTP: %v", err)
	}
	t.Cleanup(func() { h.Close() })
	return h, cmd, endpoint, hc
}

// bearer adds the token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// A client's --grace is the grace of the jobs it starts, whatever the
// session's own default (another client started the session).
func TestClientGrace(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, _ := w.agent("agent-a", "--linger", "1s", "--grace", "30s")
	w.call(a, "job_status", map[string]any{}, false)
	b, _ := w.agent("agent-b", "--grace", "0")
	w.call(b, "background", map[string]any{"command": w.job("trap '' TERM; echo up; sleep 300")}, false)
	start := time.Now()
	out := w.call(b, "job_kill", map[string]any{"id": 0}, false)
	if d := time.Since(start); d > 10*time.Second || !strings.Contains(out, "at once") {
		t.Fatalf("agent b's job (its --grace 0) took %v to stop:\n%s", d, out)
	}
}

// oldSession is the "oldsession" role: a session of another protocol
// (99) that refuses every hello, control ones included, as a jobdeck much
// older or newer than this one might. It holds the lock, listens, writes
// its info file, and exits on SIGTERM.
func oldSession(dir, key string) int {
	lf, err := lockFile(filepath.Join(dir, key+".lock"))
	if err != nil {
		fmt.Println(err)
		return 1
	}
	if ok, err := tryLock(lf); !ok || err != nil {
		fmt.Println("lock:", ok, err)
		return 1
	}
	ln, err := net.Listen("unix", filepath.Join(dir, key+".sock"))
	if err != nil {
		fmt.Println(err)
		return 1
	}
	b, _ := json.Marshal(Info{Key: key, PID: os.Getpid(), Version: "v9.9.9", Protocol: 99})
	_ = os.WriteFile(filepath.Join(dir, key+".json"), b, 0o600)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM)
	go refuseAsOldVersion(ln)
	fmt.Println("ready")
	<-sigs
	ln.Close()
	return 0
}

// `jobdeck sessions stop` stops a session that will not speak to it (of
// another protocol, refusing even the control hello), as the version
// error tells the user to: the process its info file names, verified to
// hold the session's lock, gets SIGTERM through a pidfd.
func TestStopOtherVersion(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	key := Target{Worktree: w.wt}.Key()
	old := exec.Command(exposedTestBinary(t))
	old.Env = append(os.Environ(), roleEnv+"=oldsession", "JDTEST_SDIR="+w.sdir, "JDTEST_KEY="+key)
	out, err := old.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = old.Process.Kill(); _ = old.Wait() }()
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		t.Fatalf("the old session did not start: %q", line)
	}
	msg, err := w.runWith(w.sdir, "--serve")
	if err == nil || !strings.Contains(msg, "jobdeck sessions stop") {
		t.Fatalf("joining the old session: %v %s", err, msg)
	}
	stop := w.cmd("sessions", "stop")
	res, err := stop.CombinedOutput()
	if err != nil {
		t.Fatalf("jobdeck sessions stop: %v\n%s", err, res)
	}
	waitFor(t, 10*time.Second, "the old session to end", func() bool { return !locked(filepath.Join(w.sdir, key+".lock")) })
}

// --linger 0 ends the session as soon as its last client leaves (yet a
// new session waits for the client that started it, however short its
// linger).
func TestLingerZero(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, _ := w.agent("agent", "--linger", "0s", "--grace", "1s")
	w.call(a, "background", map[string]any{"command": w.job("sleep 300")}, false)
	a.Close()
	start := time.Now()
	w.noLeftovers(15 * time.Second)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("with --linger 0 the session took %v to end (grace 1 s)", d)
	}
	for range 3 {
		b, _ := w.agent("agent-b", "--linger", "1ns")
		w.call(b, "job_status", map[string]any{}, false)
		b.Close()
		w.noLeftovers(15 * time.Second)
	}
}

// TestNestedClientDoesNotKeepSession: a job that runs `jobdeck --serve`
// (in the same worktree, with the same session directory) is a client of
// the session it runs in; it is listed as inside that job, and when the
// agent that started it leaves, the session lingers and ends, stopping
// the job and its nested client (it used to keep itself running forever).
func TestNestedClientDoesNotKeepSession(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("only Linux reads a client's ancestry (/proc)")
	}
	w := newWorld(t)
	a, _ := w.agent("agent", "--linger", "1s", "--grace", "1s")
	w.call(a, "background", map[string]any{"command": w.job("sleep 300 | " + w.bin + " --serve"), "name": "nest"}, false)
	waitFor(t, 20*time.Second, "the nested client listed as inside job 0", func() bool {
		i, ok := w.info()
		if !ok {
			return false
		}
		for _, c := range i.Clients {
			if c.Nested && c.InJob != nil && *c.InJob == 0 {
				return true
			}
		}
		return false
	})
	a.Close()
	w.noLeftovers(20 * time.Second)
}

// refuseAsOldVersion answers every hello on ln as a session of protocol 99
// (version v9.9.9) would: refused, with its version. It ends when ln
// closes.
func refuseAsOldVersion(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			req, _, err := readHello(bufio.NewReader(c))
			if err != nil {
				return
			}
			data, _ := json.Marshal(versionData{Protocol: 99, Version: "v9.9.9"})
			_ = writeMessage(c, &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: codeVersion, Message: "old", Data: data}})
		}()
	}
}
