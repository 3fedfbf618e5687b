package jobs

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/model"
)

// Tests with python jobs: the small inputs.

// TestKillFreesPorts: two python servers started in the background of one
// job; once both listen, a kill frees both ports within grace + 1 s, and the
// same command binds them again at once. The ports are free ones, so that
// this test runs beside another copy of itself (CI's plain and -race
// passes run at once).
func TestKillFreesPorts(t *testing.T) {
	needTools(t, "python3")
	tb := newTable(t, Options{Grace: new(time.Second)})
	ports := testkit.FreePorts(t, 2)
	a, b := fmt.Sprintf("127.0.0.1:%d", ports[0]), fmt.Sprintf("127.0.0.1:%d", ports[1])
	cmd := fmt.Sprintf(`sh -c 'python3 -m http.server %d & python3 -m http.server %d & wait'`, ports[0], ports[1])
	listening := func() bool { return canConnect(a) && canConnect(b) }
	for round := range 2 {
		r := start(t, tb, model.Spec{Command: cmd, Dir: t.TempDir()})
		waitFor(t, 10*time.Second, "both servers to listen", listening)
		t0 := time.Now()
		if _, err := tb.Kill(t.Context(), r.Job.ID, model.KillOptions{}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 2*time.Second, "both ports to be free", func() bool { return !canConnect(a) && !canConnect(b) })
		if d := time.Since(t0); d > 2*time.Second {
			t.Fatalf("round %d: ports free %v after the kill began; grace + 1 s is 2 s", round, d)
		}
	}
}

func canConnect(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// TestPythonEscapesReachNoReader: the small input, with python.
func TestPythonEscapesReachNoReader(t *testing.T) {
	needTools(t, "python3")
	t.Parallel()
	tb := newTable(t, Options{})
	r := start(t, tb, model.Spec{Command: `python3 -c 'import sys; print("\x1b[31mred\x1b[0m"); sys.stdout.write("\x1b]52;c;cHduZWQ=\x07ok\n")'`})
	waitFor(t, 5*time.Second, "done", func() bool { return snap(t, tb, r.Job.ID).Done })
	rep, _ := tb.Status(t.Context(), r.Job.ID, model.StatusOptions{})
	_, body, _ := strings.Cut(plainText(rep), "\n") // the header quotes the command
	if body != "> red\n> ok\n" || hasControls(plainText(rep)) {
		t.Fatalf("report: %q", plainText(rep))
	}
}

// TestStderrIsATerminal: with a pty (the default) python sees a terminal
// on stderr, and what it writes there is still kept as stderr, its
// colour raw in the ring; with NoTTY it sees a pipe.
func TestStderrIsATerminal(t *testing.T) {
	needTools(t, "python3")
	t.Parallel()
	tb := newTable(t, Options{})
	for _, tc := range []struct {
		noTTY bool
		want  string
	}{{false, "\x1b[31mTrue\x1b[0m"}, {true, "\x1b[31mFalse\x1b[0m"}} {
		r := start(t, tb, model.Spec{NoTTY: tc.noTTY, Command: `python3 -c 'import sys; print("\x1b[31m%s\x1b[0m" % sys.stderr.isatty(), file=sys.stderr)'`})
		waitFor(t, 10*time.Second, "done", func() bool { return snap(t, tb, r.Job.ID).Done })
		p, err := tb.Read(r.Job.ID, model.ReadRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Lines) != 1 || string(p.Lines[0].Text) != tc.want || p.Lines[0].Stream != model.StreamErr {
			t.Errorf("NoTTY=%v: lines %q, want one stderr line %q", tc.noTTY, lineTexts(p), tc.want)
		}
	}
}
