//go:build unix

package vhs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// TermOptions says what a Term runs and how big its screen is.
type TermOptions struct {
	// Argv is the program and its arguments; Argv[0] is looked up on the PATH
	// of the runner's own environment.
	Argv []string
	// Env is the complete environment of the program (nothing is inherited).
	Env []string
	// Dir is the working directory; empty means the runner's.
	Dir string
	// Cols and Rows are the screen size in cells; both must be positive.
	Cols, Rows int
}

// Term is a program running in a pseudo-terminal whose output feeds an
// x/vt emulator: the emulator keeps the screen, encodes keys for the
// terminal's current modes and answers the program's queries (DA, DSR,
// DECRQM…), and all of that goes back into the pty.
//
// Two goroutines own the IO: one copies pty output into the emulator, the
// other copies the emulator's input pipe (typed keys and query answers) into
// the pty. Term's methods are safe for concurrent use. Close must be called.
type Term struct {
	cmd  *exec.Cmd
	ptmx *os.File
	emu  *vt.SafeEmulator

	// screenMu serialises emulator writes with screen reads: CellAt returns
	// a pointer into the live buffer, so its fields must be read while no
	// Write can change them (SafeEmulator only locks the CellAt call).
	screenMu   sync.RWMutex
	cols, rows int

	lastIn  atomic.Int64 // unix ns of the last byte sent to the program
	lastOut atomic.Int64 // unix ns of the last byte the program wrote

	outDone  chan struct{} // closed when the pty reader ends (EOF/EIO)
	exited   chan struct{} // closed when cmd.Wait returns
	inDone   chan struct{} // closed when the input copier ends
	closeErr error
	closing  sync.Once
}

// StartTerm starts opts.Argv in a new session whose controlling terminal is a
// fresh pty of opts.Cols × opts.Rows cells, and starts feeding its output to
// an emulator of the same size. Errors: the pty could not be opened or the
// program could not be started.
func StartTerm(opts TermOptions) (*Term, error) {
	if len(opts.Argv) == 0 || opts.Cols <= 0 || opts.Rows <= 0 {
		return nil, fmt.Errorf("start terminal: need a program and a positive size, got %q at %d×%d", opts.Argv, opts.Cols, opts.Rows)
	}
	hangupDefault.Do(catchIgnoredHangup)
	cmd := exec.Command(opts.Argv[0], opts.Argv[1:]...)
	cmd.Env = opts.Env
	cmd.Dir = opts.Dir
	// Setsid makes the shell a session and process-group leader, so Close can
	// signal everything in its group by the pid we hold; Setctty makes the pty
	// its controlling terminal (Ctty 0 is the child's stdin).
	ptmx, err := pty.StartWithAttrs(cmd, &pty.Winsize{Cols: uint16(opts.Cols), Rows: uint16(opts.Rows)},
		&syscall.SysProcAttr{Setsid: true, Setctty: true})
	if err != nil {
		return nil, fmt.Errorf("start %s in a pty: %w", opts.Argv[0], err)
	}
	t := &Term{
		cmd: cmd, ptmx: ptmx, emu: vt.NewSafeEmulator(opts.Cols, opts.Rows),
		cols: opts.Cols, rows: opts.Rows,
		outDone: make(chan struct{}), exited: make(chan struct{}), inDone: make(chan struct{}),
	}
	now := time.Now().UnixNano()
	t.lastIn.Store(now)
	t.lastOut.Store(now)
	go t.copyOut()
	go t.copyIn()
	go func() {
		_ = cmd.Wait()
		close(t.exited)
	}()
	return t, nil
}

// hangupDefault runs catchIgnoredHangup once per process.
var hangupDefault sync.Once

// catchIgnoredHangup makes a runner started with SIGHUP ignored (under
// nohup(1), say) start its shells with SIGHUP at its default, as a terminal
// does, so that Close's hangup ends them. An ignored signal stays ignored
// across execve(2) but a caught one is reset to its default (signal(7)), so
// the runner catches SIGHUP into a channel nobody reads: a hangup still
// does not end the runner, and its children see the default.
func catchIgnoredHangup() {
	if signal.Ignored(syscall.SIGHUP) {
		signal.Notify(make(chan os.Signal, 1), syscall.SIGHUP)
	}
}

// copyOut feeds pty output to the emulator until the pty reports EOF or EIO,
// which Linux does once no process holds the pty's slave side any more.
func (t *Term) copyOut() {
	defer close(t.outDone)
	buf := make([]byte, 32*1024)
	for {
		n, err := t.ptmx.Read(buf)
		if n > 0 {
			t.lastOut.Store(time.Now().UnixNano())
			t.screenMu.Lock()
			_, _ = t.emu.Write(buf[:n])
			t.screenMu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// copyIn drains the emulator's input pipe into the pty. It must always run:
// x/vt answers queries through an unbuffered io.Pipe, so without a reader the
// first query (Bubble Tea v2 sends DECRQM at start) blocks emulator writes
// forever.
func (t *Term) copyIn() {
	defer close(t.inDone)
	buf := make([]byte, 4096)
	for {
		n, err := t.emu.Read(buf)
		if n > 0 {
			t.lastIn.Store(time.Now().UnixNano())
			if _, werr := t.ptmx.Write(buf[:n]); werr != nil {
				// The program is gone; keep draining so writers never block.
				continue
			}
		}
		if err != nil {
			return
		}
	}
}

// Size returns the screen size in cells.
func (t *Term) Size() (cols, rows int) {
	t.screenMu.RLock()
	defer t.screenMu.RUnlock()
	return t.cols, t.rows
}

// SendText types text as is (no key encoding).
func (t *Term) SendText(s string) {
	t.lastIn.Store(time.Now().UnixNano())
	t.emu.SendText(s)
}

// SendKey sends one key press, encoded by the emulator for the terminal's
// current modes (e.g. Up is ESC O A under DECCKM, ESC [ A otherwise).
func (t *Term) SendKey(k uv.KeyPressEvent) {
	t.lastIn.Store(time.Now().UnixNano())
	t.emu.SendKey(k)
}

// SendMouse sends one mouse event, encoded by the emulator for the mouse
// mode the program asked for; with none asked for, nothing is sent.
func (t *Term) SendMouse(m uv.MouseEvent) {
	t.lastIn.Store(time.Now().UnixNano())
	t.emu.SendMouse(m)
}

// Lines returns the visible screen as one string per row, each
// right-trimmed of spaces. A wide character appears once: the cells it
// covers after its first are skipped.
func (t *Term) Lines() []string {
	t.screenMu.RLock()
	defer t.screenMu.RUnlock()
	return t.linesLocked()
}

func (t *Term) linesLocked() []string {
	cols, rows := t.cols, t.rows
	lines := make([]string, rows)
	var b strings.Builder
	for y := range rows {
		b.Reset()
		skip := 0
		for x := range cols {
			c := t.emu.CellAt(x, y)
			switch {
			case skip > 0:
				skip--
			case c == nil || c.Content == "":
				b.WriteByte(' ')
			default:
				b.WriteString(c.Content)
				skip = c.Width - 1
			}
		}
		lines[y] = strings.TrimRight(b.String(), " ")
	}
	return lines
}

// Shot returns Lines and, read at the same instant, the screen's cells
// (copies, safe to keep: Rows rows of Cols cells each; a cell the emulator
// has no content for is the zero Cell, a blank).
func (t *Term) Shot() (lines []string, cells [][]uv.Cell) {
	t.screenMu.RLock()
	defer t.screenMu.RUnlock()
	cells = make([][]uv.Cell, t.rows)
	for y := range cells {
		cells[y] = make([]uv.Cell, t.cols)
		for x := range cells[y] {
			if c := t.emu.CellAt(x, y); c != nil {
				cells[y][x] = *c
			}
		}
	}
	return t.linesLocked(), cells
}

// Screen returns Lines joined by "\n", as VHS's Wait+Screen sees it.
func (t *Term) Screen() string { return strings.Join(t.Lines(), "\n") }

// CurrentLine returns the right-trimmed line the cursor is on, as VHS's
// Wait+Line sees it.
func (t *Term) CurrentLine() string {
	t.screenMu.RLock()
	defer t.screenMu.RUnlock()
	y := t.emu.CursorPosition().Y
	lines := t.linesLocked()
	if y < 0 || y >= len(lines) {
		return ""
	}
	return lines[y]
}

// AltScreen reports whether the program has switched to the alternate screen.
func (t *Term) AltScreen() bool { return t.emu.IsAltScreen() }

// ErrNotSettled means the screen kept changing for the whole settle budget.
var ErrNotSettled = errors.New("screen did not settle; the program keeps redrawing (animation or clock on screen?): make it still for tapes, or Wait+Screen for the state you want")

// Settle waits until neither side of the pty has sent a byte for quiet,
// measured from the later of our last input and the program's last output
// (measuring from output alone returns at once after a key press, before the
// program reacted). It gives up after limit and returns ErrNotSettled.
func (t *Term) Settle(quiet, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		last := max(t.lastIn.Load(), t.lastOut.Load())
		idle := time.Since(time.Unix(0, last))
		if idle >= quiet {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%w (budget %v)", ErrNotSettled, limit)
		}
		time.Sleep(min(quiet-idle, 10*time.Millisecond))
	}
}

// Resize changes the screen and the pty to cols × rows cells; the kernel
// sends SIGWINCH to the foreground process group.
func (t *Term) Resize(cols, rows int) error {
	t.screenMu.Lock()
	t.emu.Resize(cols, rows)
	t.cols, t.rows = cols, rows
	t.screenMu.Unlock()
	if err := pty.Setsize(t.ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		return fmt.Errorf("resize pty: %w", err)
	}
	return nil
}

// Exited reports whether the program started by StartTerm has exited.
func (t *Term) Exited() bool {
	select {
	case <-t.exited:
		return true
	default:
		return false
	}
}

// Close ends the program's session and releases the pty: SIGHUP to the
// process group of the pid StartTerm started (an interactive bash passes the
// hangup on to its jobs, and jobdeck shuts its jobs down on it), then waits up
// to grace for every process holding the pty to let go (the pty reads EIO).
// Whatever is left of the session then — the group by that pid, and any
// other group still in that session (found in /proc) — gets SIGKILL.
// Close returns an error naming processes that needed SIGKILL. It is safe to
// call more than once; later calls return the first result.
func (t *Term) Close(grace time.Duration) error {
	t.closing.Do(func() { t.closeErr = t.close(grace) })
	return t.closeErr
}

func (t *Term) close(grace time.Duration) error {
	pid := t.cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGHUP)
	var errs []error
	deadline := time.Now().Add(grace)
	hangup := time.Now().Add(grace / 2)
	clean := func() bool {
		select {
		case <-t.outDone:
		default:
			return false
		}
		return t.Exited() && len(sessionProcs(pid)) == 0
	}
	for !clean() && time.Now().Before(deadline) {
		if !t.Exited() && time.Now().After(hangup) {
			// The shell outlived its SIGHUP (bash was seen to, by more
			// than 10 s, on a loaded machine): close the master, as a
			// terminal window that closes does, which hangs up the line
			// (the kernel's SIGHUP, and EOF on the shell's reads).
			_ = t.ptmx.Close()
			hangup = deadline
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !clean() {
		left := sessionProcs(pid)
		errs = append(errs, fmt.Errorf("still running %v after SIGHUP, killed: %s", grace, describeProcs(left)))
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		for _, p := range left {
			_ = syscall.Kill(-p.pgid, syscall.SIGKILL)
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
	}
	select {
	case <-t.exited:
	case <-time.After(5 * time.Second):
		errs = append(errs, fmt.Errorf("pid %d did not exit after SIGKILL", pid))
	}
	// Closing the pipe, not Emulator.Close, stops copyIn: x/vt v0.1.0's Close
	// sets an unsynchronised flag that races with a concurrent Read.
	_ = t.emu.InputPipe().(*io.PipeWriter).Close()
	_ = t.ptmx.Close()
	<-t.inDone
	<-t.outDone
	return errors.Join(errs...)
}
