//go:build linux

package supervisor

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/internal/testtimeout"
	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
)

// helperEnv makes the test binary run a helper instead of the tests (see
// TestMain): "fakejobdeck" or "listen".
const helperEnv = "SUPTEST_HELPER"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == Arg {
		os.Exit(Main())
	}
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode))
	}
	// Supervisors write to /dev/null, so under -race their reports would be
	// lost: send them to files (log_path) and fail the run if any appear.
	// atexit_sleep_ms=0 drops the race runtime's 1 s sleep at exit.
	raceDir, err := os.MkdirTemp("", "suptest-race-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("GORACE", "atexit_sleep_ms=0 log_path="+filepath.Join(raceDir, "race"))
	code := m.Run()
	if reports, _ := filepath.Glob(filepath.Join(raceDir, "race*")); len(reports) > 0 {
		for _, r := range reports {
			b, _ := os.ReadFile(r)
			fmt.Fprintf(os.Stderr, "race report of a supervisor or helper process (%s):\n%s\n", r, b)
		}
		code = 1
	}
	os.RemoveAll(raceDir)
	os.Exit(code)
}

var sessionSeq atomic.Int64

// testSession returns a session marker unique to this test run; it also
// serves as the argv/env marker of the test's scripts, found by substring
// (testkit.Marked). The sequence number has a fixed width so that no
// marker is a prefix of another ("-1" of "-10").
func testSession() string {
	return fmt.Sprintf("suptest%d-%05d", os.Getpid(), sessionSeq.Add(1))
}

// capture collects one output stream: the first headCap bytes, the last
// tailCap bytes and the total.
type capture struct {
	mu    sync.Mutex
	head  []byte
	tail  []byte
	total int64
	err   error
	done  chan struct{}
}

const (
	headCap = 1 << 20
	tailCap = 64 << 10
)

func newCapture(f *os.File) *capture {
	c := &capture{done: make(chan struct{})}
	go func() {
		defer close(c.done)
		defer f.Close()
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				c.mu.Lock()
				c.total += int64(n)
				if room := headCap - len(c.head); room > 0 {
					c.head = append(c.head, buf[:min(n, room)]...)
				}
				// The tail is cut back to tailCap only when it reaches
				// twice that, in place: one copy per 64 KiB read, not
				// per read (a flood arrives in reads far smaller, and under
				// -race every copy is checked byte range by byte range).
				c.tail = append(c.tail, buf[:n]...)
				if len(c.tail) > 2*tailCap {
					c.tail = append(c.tail[:0], c.tail[len(c.tail)-tailCap:]...)
				}
				c.mu.Unlock()
			}
			if err != nil {
				// A pty master reports EIO once every slave is closed.
				if !errors.Is(err, io.EOF) && !errors.Is(err, syscall.EIO) {
					c.mu.Lock()
					c.err = err
					c.mu.Unlock()
				}
				return
			}
		}
	}()
	return c
}

// text is everything read when it fits in head, else head + tail.
func (c *capture) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total <= headCap {
		return string(c.head)
	}
	return string(c.head) + "\n[…]\n" + string(c.tail[max(0, len(c.tail)-tailCap):])
}

func (c *capture) bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}

// testJob is a started job with its output and events collected.
type testJob struct {
	t       *testing.T
	h       *Handle
	session string
	out     *capture
	errOut  *capture
	started time.Time

	mu     sync.Mutex
	evs    []Event
	evDone chan struct{}
}

// startJob starts cfg with a fresh session (unless set) and the test's
// environment, collects everything, and on cleanup kills what is left and
// checks that nothing of the job survived.
func startJob(t *testing.T, cfg Config) *testJob {
	t.Helper()
	j, err := tryStartJob(t, cfg)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return j
}

func tryStartJob(t *testing.T, cfg Config) (*testJob, error) {
	t.Helper()
	if cfg.Session == "" {
		cfg.Session = testSession()
	}
	if cfg.Dir == "" {
		cfg.Dir = t.TempDir()
	}
	if cfg.Env == nil {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		// LC_ALL=C: the tests match bash's and coreutils' English messages.
		cfg.Env = append(os.Environ(), "LC_ALL=C", "TEST_MARK="+cfg.Session, "TESTDATA="+testdataDir(t), "SUPTEST_EXE="+exe)
	}
	began := time.Now()
	h, err := Start(cfg)
	if err != nil {
		return nil, err
	}
	j := &testJob{t: t, h: h, session: cfg.Session, started: began,
		out: newCapture(h.Stdout()), errOut: newCapture(h.Stderr()), evDone: make(chan struct{})}
	go func() {
		defer close(j.evDone)
		for ev := range h.Events() {
			j.mu.Lock()
			j.evs = append(j.evs, ev)
			j.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		select {
		case <-j.evDone:
		default:
			_ = h.Stop(0)
		}
		if !j.waitDone(15 * time.Second) {
			t.Errorf("job %s: events not closed 15 s after the test", j.session)
		}
		_ = h.Close()
		testkit.AssertNoLeftovers(t, j.session, 5*time.Second)
	})
	return j, nil
}

// events returns a copy of the events so far.
func (j *testJob) events() []Event {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]Event(nil), j.evs...)
}

// waitEvent waits for the first event of kind and returns it.
func (j *testJob) waitEvent(kind EventKind, d time.Duration) (Event, bool) {
	var got Event
	ok := testkit.Poll(d, func() bool {
		for _, ev := range j.events() {
			if ev.Kind == kind {
				got = ev
				return true
			}
		}
		return false
	})
	return got, ok
}

func (j *testJob) mustEvent(kind EventKind, d time.Duration) Event {
	j.t.Helper()
	ev, ok := j.waitEvent(kind, d)
	if !ok {
		j.t.Fatalf("no %v event within %v; events %v\nstdout: %s\nstderr: %s", kind, d, j.events(), j.out.text(), j.errOut.text())
	}
	return ev
}

// waitOut waits until stdout contains s.
func (j *testJob) waitOut(s string, d time.Duration) bool {
	return testkit.Poll(d, func() bool { return strings.Contains(j.out.text(), s) })
}

// mustOut is waitOut that fails the test; d is a coarse bound, scaled
// under -race.
func (j *testJob) mustOut(s string, d time.Duration) {
	j.t.Helper()
	d = testtimeout.Scale(d)
	if !j.waitOut(s, d) {
		j.t.Fatalf("stdout has no %q within %v\nstdout: %s\nstderr: %s\nevents: %v", s, d, j.out.text(), j.errOut.text(), j.events())
	}
}

// mustMarked waits (up to 30 s, scaled for -race) until at least n live
// processes carry the job's marker (testkit.Marked) and, for each of
// argv0s, one of them runs with that argv[0], and fails the test
// otherwise: a script's READY does not mean that its helpers have exec'd
// their programs (or set their traps) yet.
func (j *testJob) mustMarked(n int, argv0s ...string) {
	j.t.Helper()
	d := testtimeout.Scale(30 * time.Second)
	var marked []string
	if !testkit.Poll(d, func() bool {
		marked = testkit.Marked(j.session)
		running := map[string]bool{}
		for _, m := range marked { // "pid argv0 args..."
			if f := strings.Fields(m); len(f) > 1 {
				running[f[1]] = true
			}
		}
		for _, a := range argv0s {
			if !running[a] {
				return false
			}
		}
		return len(marked) >= n
	}) {
		j.t.Fatalf("within %v: %d processes carry the marker, want >= %d with argv[0] %q: %v", d, len(marked), n, argv0s, marked)
	}
}

// waitDone waits until the events channel closed and both outputs hit EOF.
func (j *testJob) waitDone(d time.Duration) bool {
	timeout := time.After(d)
	for _, ch := range []chan struct{}{j.evDone, j.out.done, j.errOut.done} {
		select {
		case <-ch:
		case <-timeout:
			return false
		}
	}
	return true
}

func (j *testJob) mustDone(d time.Duration) {
	j.t.Helper()
	// d is a coarse bound on a loaded machine, scaled under -race (the
	// supervisor is built with it too).
	d = testtimeout.Scale(d)
	if !j.waitDone(d) {
		j.t.Fatalf("job not done within %v; events %v\nstdout: %s\nstderr: %s", d, j.events(), j.out.text(), j.errOut.text())
	}
}

// exit returns the exit event (the job must be done or have exited).
func (j *testJob) exit() (Event, bool) {
	for _, ev := range j.events() {
		if ev.Kind == EventExit {
			return ev, true
		}
	}
	return Event{}, false
}

// signalled sums EventSignalled counts per signal.
func (j *testJob) signalled(sig syscall.Signal) int {
	n := 0
	for _, ev := range j.events() {
		if ev.Kind == EventSignalled && ev.Signal == int(sig) {
			n += ev.Count
		}
	}
	return n
}

// treeRuns reports whether a live process of the job's tree runs the
// program comm (/proc/<pid>/comm).
func (j *testJob) treeRuns(comm string) bool {
	for _, p := range sys.Walk(j.h.proc.Pid) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p.Pid) + "/comm")
		if err == nil && !p.Zombie() && strings.TrimSpace(string(b)) == comm {
			return true
		}
	}
	return false
}

// testdataDir is the absolute path of supervisor/testdata.
func testdataDir(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test's source directory")
	}
	return filepath.Join(filepath.Dir(file), "testdata")
}
