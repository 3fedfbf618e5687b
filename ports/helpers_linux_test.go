package ports

import (
	"bufio"
	"io"
	"net/netip"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/ports/portstest"
)

// TestMain lets the test binary serve as the listening helper.
func TestMain(m *testing.M) {
	portstest.MaybeServe()
	os.Exit(m.Run())
}

// tree is a process tree a test started: bash running script, in its own
// process group, with stdout on a pipe. Cleanup kills the group.
type tree struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines *bufio.Reader
}

// startTree runs script under bash; $EXE is this test binary.
func startTree(t testing.TB, script string) *tree {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = append(os.Environ(), "EXE="+exe)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// The group is this test's own: the bash it started and what bash
		// started (helpers do not leave the group).
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	return &tree{cmd: cmd, in: in, lines: bufio.NewReader(out)}
}

// pid is the tree's root (bash).
func (tr *tree) pid() int { return tr.cmd.Process.Pid }

// listening reads the helper's n answers ("listening <addr>" or "failed
// <addr> <why>") and returns the addresses it listens on; it fails the
// test when there are none, or after 20 s.
func (tr *tree) listening(t testing.TB, n int) []netip.AddrPort {
	t.Helper()
	type res struct {
		ap  []netip.AddrPort
		err error
	}
	ch := make(chan res, 1)
	go func() {
		var out []netip.AddrPort
		for answers := 0; answers < n; {
			line, err := tr.lines.ReadString('\n')
			if err != nil {
				ch <- res{out, err}
				return
			}
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "failed ") {
				answers++
			}
			if a, ok := strings.CutPrefix(line, "listening "); ok {
				answers++
				ap, err := netip.ParseAddrPort(a)
				if err != nil {
					ch <- res{out, err}
					return
				}
				out = append(out, ap)
			}
		}
		ch <- res{out, nil}
	}()
	select {
	case r := <-ch:
		if r.err != nil && r.err != io.EOF {
			t.Fatalf("reading the helper's addresses: %v", r.err)
		}
		if len(r.ap) == 0 {
			t.Fatalf("the helper listens on nothing")
		}
		return r.ap
	case <-time.After(20 * time.Second):
		t.Fatalf("the helper did not say where it listens within 20 s")
	}
	return nil
}

// serve is the shell text that runs the helper listening on addrs.
func serve(addrs ...string) string {
	return portstest.Env + "='" + strings.Join(addrs, ",") + `' "$EXE"`
}

// handed reads lines up to the helper's "handed <pid>" and returns the pid
// of the child now holding its sockets.
func (tr *tree) handed(t testing.TB) int {
	t.Helper()
	ch := make(chan string, 1)
	go func() {
		for {
			line, err := tr.lines.ReadString('\n')
			if err != nil {
				ch <- ""
				return
			}
			if pid, ok := strings.CutPrefix(strings.TrimSpace(line), "handed "); ok {
				ch <- pid
				return
			}
		}
	}()
	select {
	case s := <-ch:
		pid, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("the helper did not hand its sockets off (%q)", s)
		}
		return pid
	case <-time.After(20 * time.Second):
		t.Fatalf("the helper did not hand its sockets off within 20 s")
	}
	return 0
}
