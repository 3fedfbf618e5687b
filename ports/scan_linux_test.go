package ports

import (
	"encoding/binary"
	"fmt"
	"net"
	"net/netip"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ports/portstest"
)

// TestParseListeners: LISTEN lines of both tables parse to address, port,
// uid and inode; other states and malformed lines are skipped.
func TestParseListeners(t *testing.T) {
	var probe [4]byte
	binary.NativeEndian.PutUint32(probe[:], 1)
	if probe[0] != 1 {
		t.Skip("the fixture is written for a little-endian kernel")
	}
	tcp := "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n" +
		"   0: 0100007F:1435 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 23456 1 0000000000000000 100 0 0 10 0\n" +
		"   1: 0100007F:1435 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 23457 1 0000000000000000 20 4 30 10 -1\n" +
		"   2: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 999 1 0000000000000000 100 0 0 10 0\n" +
		"   3: garbage\n"
	tcp6 := "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n" +
		"   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 34567 1 0000000000000000 100 0 0 10 0\n" +
		"   1: 00000000000000000000000001000000:2328 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 34568 1 0000000000000000 100 0 0 10 0\n" +
		"   2: 0000000000000000FFFF00000100007F:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 34569 1 0000000000000000 100 0 0 10 0"
	var got []listener
	parseListeners([]byte(tcp), func(l listener) { got = append(got, l) })
	parseListeners([]byte(tcp6), func(l listener) { got = append(got, l) })
	want := []listener{
		{netip.MustParseAddr("127.0.0.1"), 5173, 1000, 23456},
		{netip.MustParseAddr("0.0.0.0"), 22, 0, 999},
		{netip.MustParseAddr("::"), 8080, 0, 34567},
		{netip.MustParseAddr("::1"), 9000, 1000, 34568},
		{netip.MustParseAddr("127.0.0.1"), 80, 1000, 34569},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

// TestListenersOfThisProcess checks the parser against the kernel: a
// socket this test listens on shows with its address, port and inode.
func TestListenersOfThisProcess(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	var fs procfs
	var inodes []uint64
	_, err = fs.sockets(os.Getpid(), nil, func(_ int, ino uint64) bool {
		inodes = append(inodes, ino)
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	var found []listener
	if err := fs.listeners(func(x listener) {
		if x.port == port {
			found = append(found, x)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].addr != netip.MustParseAddr("127.0.0.1") || !slices.Contains(inodes, found[0].inode) {
		t.Fatalf("listeners on port %d: %+v; this process's socket inodes: %v", port, found, inodes)
	}
	if found[0].uid != os.Getuid() {
		t.Errorf("uid %d, want %d", found[0].uid, os.Getuid())
	}
}

// TestDiagMatchesTables: sock_diag and the /proc tables list this
// process's listeners alike (address, port, uid, inode), in both families
// where the machine has IPv6.
func TestDiagMatchesTables(t *testing.T) {
	var mine []int
	for _, a := range []string{"127.0.0.1:0", "[::1]:0", "[::]:0"} {
		l, err := net.Listen("tcp", a)
		if err != nil {
			t.Logf("no listener on %s: %v", a, err)
			continue
		}
		defer l.Close()
		mine = append(mine, l.Addr().(*net.TCPAddr).Port)
	}
	var fs procfs
	collect := func(read func(func(listener)) error) []listener {
		var out []listener
		if err := read(func(l listener) {
			if slices.Contains(mine, l.port) {
				out = append(out, l)
			}
		}); err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(out, func(a, b listener) int { return a.port - b.port })
		return out
	}
	diag, tables := collect(fs.diagListeners), collect(fs.tableListeners)
	if len(diag) != len(mine) || !slices.Equal(diag, tables) {
		t.Errorf("sock_diag lists %v\n/proc lists %v\nfor ports %v", diag, tables, mine)
	}
}

// TestScanFindsTree: a listener two levels below the root is found with
// its pid; a tree that listens on nothing has no ports, and neither has a
// root that does not exist; this process's own listener is nobody's.
func TestScanFindsTree(t *testing.T) {
	t.Parallel()
	own, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	// bash → bash (subshell) → helper; v6 only when the machine has it.
	tr := startTree(t, `( `+serve("127.0.0.1:0", "[::1]:0")+` ; true ) & sleep 60 & wait`)
	aps := tr.listening(t, 2)
	quiet := startTree(t, `sleep 60 & sleep 60 & wait`)

	var s Scanner
	got, err := s.Scan([]int{tr.pid(), quiet.pid(), 1 << 30, 0})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("Scan returned %d trees, want 4", len(got))
	}
	var want []model.Port
	for _, ap := range aps {
		want = append(want, model.Port{Addr: ap.Addr(), Port: int(ap.Port())})
	}
	want = SortPorts(want)
	if len(got[0]) != len(want) {
		t.Fatalf("tree 0 listens on %v, want %v", got[0], want)
	}
	helper := got[0][0].PID
	for i, p := range got[0] {
		if p.Addr != want[i].Addr || p.Port != want[i].Port || p.PID != helper || p.PID == tr.pid() || p.PID == 0 {
			t.Errorf("tree 0 port %d = %+v, want %v held by the helper (not bash %d)", i, p, want[i], tr.pid())
		}
	}
	if got[1] != nil || got[2] != nil || got[3] != nil {
		t.Errorf("quiet, missing and zero roots listen on %v, %v, %v; want none", got[1], got[2], got[3])
	}
	// Negative control: the same scan from this process's pid finds its
	// own listener (so the scan can see one), and the helper's only
	// through the tree that holds it.
	self, err := s.Scan([]int{tr.pid(), os.Getpid()})
	if err != nil {
		t.Fatal(err)
	}
	ownPort := own.Addr().(*net.TCPAddr).Port
	if !slices.ContainsFunc(self[1], func(p model.Port) bool { return p.Port == ownPort }) {
		t.Errorf("this process's tree listens on %v; want its own port %d among them", self[1], ownPort)
	}
	if slices.ContainsFunc(self[0], func(p model.Port) bool { return p.Port == ownPort }) {
		t.Errorf("the helper's tree lists this process's port %d", ownPort)
	}
}

// TestSortPorts: by port, then IPv4 before IPv6; repeats dropped, the
// first kept.
func TestSortPorts(t *testing.T) {
	a4, a6 := netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::")
	p := func(a netip.Addr, port, pid int) model.Port { return model.Port{Addr: a, Port: port, PID: pid} }
	got := SortPorts([]model.Port{p(a6, 80, 3), p(a4, 443, 1), p(a4, 80, 2), p(a6, 80, 4)})
	want := []model.Port{p(a4, 80, 2), p(a6, 80, 3), p(a4, 443, 1)}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if SortPorts(nil) != nil || SortPorts([]model.Port{}) != nil {
		t.Error("an empty list should sort to nil")
	}
	if s := (model.Port{Addr: a6, Port: 8080}).String(); s != "[::]:8080" {
		t.Errorf("String = %q", s)
	}
}

// TestScanFollowsChanges drives one Scanner through what its memo must
// follow: a listener that appears after the first scan, one whose process
// hands the socket to a child and closes its own, a socket held outside
// the tree (left out, then found once its process's tree is scanned too),
// and a tree that is gone.
func TestScanFollowsChanges(t *testing.T) {
	t.Parallel()
	tr := startTree(t, `while read -r line; do eval "$line" & done; wait`)
	var s Scanner
	scan := func(roots ...int) [][]model.Port {
		t.Helper()
		got, err := s.Scan(roots)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := scan(tr.pid()); got[0] != nil {
		t.Fatalf("an empty tree listens on %v", got[0])
	}

	fmt.Fprintln(tr.in, serve("127.0.0.1:0"))
	first := tr.listening(t, 1)[0]
	fmt.Fprintln(tr.in, portstest.EnvHandOff+"=1 "+serve("127.0.0.1:0"))
	second := tr.listening(t, 1)[0]
	child := tr.handed(t)
	for i := range 3 { // found by a search, then by the memo
		got := scan(tr.pid())[0]
		if len(got) != 2 || got[0].Port != int(min(first.Port(), second.Port())) ||
			got[1].Port != int(max(first.Port(), second.Port())) {
			t.Fatalf("scan %d: the tree listens on %v; want %v and %v", i, got, first, second)
		}
		for _, p := range got {
			if p.Port == int(second.Port()) && p.PID != child {
				t.Errorf("scan %d: port %d held by %d, want the child %d it was handed to", i, p.Port, p.PID, child)
			}
			if p.Port == int(first.Port()) && (p.PID == child || p.PID == tr.pid()) {
				t.Errorf("scan %d: port %d held by %d, want the first helper", i, p.Port, p.PID)
			}
		}
	}

	own, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	ownPort := own.Addr().(*net.TCPAddr).Port
	hasOwn := func(ps []model.Port) bool {
		return slices.ContainsFunc(ps, func(p model.Port) bool { return p.Port == ownPort })
	}
	for i := range foreignAfter + 2 {
		if got := scan(tr.pid()); hasOwn(got[0]) {
			t.Fatalf("scan %d: the tree lists this process's port %d: %v", i, ownPort, got[0])
		}
	}
	if got := scan(tr.pid(), os.Getpid()); !hasOwn(got[1]) || hasOwn(got[0]) || len(got[0]) != 2 {
		t.Fatalf("with this process as a root too: %v; want its port %d in the second tree only", got, ownPort)
	}

	_ = syscall.Kill(-tr.pid(), syscall.SIGKILL) // this test's own group
	deadline := time.Now().Add(10 * time.Second)
	for got := scan(tr.pid()); got[0] != nil; got = scan(tr.pid()) {
		if time.Now().After(deadline) {
			t.Fatalf("a killed tree still listens on %v after 10 s", got[0])
		}
		time.Sleep(10 * time.Millisecond)
	}
}
