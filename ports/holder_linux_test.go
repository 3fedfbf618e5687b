package ports

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestHolders: the process listening on a port is found with its command
// name, its ancestors lead back to this test, and its environment is
// readable; a port nobody listens on has no holder.
func TestHolders(t *testing.T) {
	t.Parallel()
	tr := startTree(t, `FLAVOUR=mint `+serve("127.0.0.1:0")+` & wait`)
	ap := tr.listening(t, 1)[0]
	hs, err := Holders(int(ap.Port()))
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 1 {
		t.Fatalf("Holders(%d) = %+v, want one", ap.Port(), hs)
	}
	h := hs[0]
	if h.Socket.Addr != ap.Addr() || h.Socket.Port != int(ap.Port()) || h.UID != os.Getuid() {
		t.Errorf("holder socket %v uid %d, want %v uid %d", h.Socket, h.UID, ap, os.Getuid())
	}
	if h.Socket.PID == 0 || h.Socket.PID == tr.pid() || h.Command != "ports.test" {
		t.Errorf("holder pid %d command %q, want the helper (ports.test), not bash %d", h.Socket.PID, h.Command, tr.pid())
	}
	anc := Ancestors(h.Socket.PID)
	if len(anc) < 2 || anc[0] != tr.pid() || !slices.Contains(anc, os.Getpid()) {
		t.Errorf("Ancestors(%d) = %v, want bash %d first and this test %d among them", h.Socket.PID, anc, tr.pid(), os.Getpid())
	}
	if p, ok := Parent(h.Socket.PID); !ok || p != tr.pid() {
		t.Errorf("Parent = %d, %v; want %d", p, ok, tr.pid())
	}
	if kids := Children(tr.pid()); !slices.Equal(kids, []int{h.Socket.PID}) {
		t.Errorf("Children(bash) = %v, want [%d]", kids, h.Socket.PID)
	}
	env := Environ(h.Socket.PID, "FLAVOUR", "NO_SUCH_VARIABLE")
	if env["FLAVOUR"] != "mint" || len(env) != 1 {
		t.Errorf("Environ = %v, want FLAVOUR=mint alone", env)
	}

	// Negative control: a port this test holds bound but not listening has
	// no holder. The bound socket (without SO_REUSEADDR) keeps every other
	// process from listening on it meanwhile: a port closed "a moment ago"
	// was taken by a parallel test's listener once in CI.
	free := boundPort(t)
	if hs, err := Holders(free); err != nil || hs != nil {
		t.Errorf("Holders(free port %d) = %+v, %v; want nothing", free, hs, err)
	}
	if hs, err := Holders(0); err != nil || hs != nil {
		t.Errorf("Holders(0) = %+v, %v; want nothing", hs, err)
	}
}

// TestScanChurn scans a tree that forks and exits processes as fast as
// bash can, beside a steady listener, for a second in each mode (the memo;
// a search of the whole tree every time; the walk by stat files): no scan
// fails, and every scan finds the listener.
func TestScanChurn(t *testing.T) {
	t.Parallel()
	tr := startTree(t, serve("127.0.0.1:0")+` &
		( while :; do
			for i in 1 2 3 4 5 6 7 8; do ( /bin/true & /bin/true ) & done
			bash -c 'sleep 0.001 & exec /bin/true' &
			wait
		done ) &
		wait`)
	ap := tr.listening(t, 1)[0]
	modes := []struct {
		name          string
		fresh, byStat bool
	}{{"memo", false, false}, {"search", true, false}, {"search by stat", true, true}}
	for _, m := range modes {
		s := &Scanner{byStat: m.byStat}
		deadline := time.Now().Add(time.Second)
		scans := 0
		for time.Now().Before(deadline) {
			if m.fresh {
				s = &Scanner{byStat: m.byStat} // nothing remembered: every scan searches
			}
			got, err := s.Scan([]int{tr.pid()})
			if err != nil {
				t.Fatalf("scan %d: %v", scans, err)
			}
			if len(got[0]) != 1 || got[0][0].Port != int(ap.Port()) {
				t.Fatalf("%s scan %d: the tree listens on %v, want %v alone", m.name, scans, got[0], ap)
			}
			scans++
		}
		t.Logf("%s: %d scans in 1 s", m.name, scans)
	}
}

// TestScanZombie: a zombie in the tree (an exited child nobody waited
// for yet) and a root that is a zombie are skipped, not errors.
func TestScanZombie(t *testing.T) {
	t.Parallel()
	c := exec.Command("/bin/true")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer c.Wait()
	// Wait for it to be a zombie (state Z) without reaping it.
	var fs procfs
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, ok := fs.readStat(c.Process.Pid)
		if ok && st.zombie {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child did not become a zombie within 10 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	var s Scanner
	got, err := s.Scan([]int{c.Process.Pid})
	if err != nil || got[0] != nil {
		t.Errorf("Scan(zombie) = %v, %v; want nothing, no error", got, err)
	}
	if hs := Ancestors(c.Process.Pid); len(hs) == 0 || hs[0] != os.Getpid() {
		t.Errorf("Ancestors(zombie) = %v, want this process first", hs)
	}
}

// boundPort binds a TCP socket to a free loopback port without listening on
// it, for the life of the test, and returns the port.
func boundPort(t *testing.T) int {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return sa.(*unix.SockaddrInet4).Port
}
