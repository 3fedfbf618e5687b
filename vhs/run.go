//go:build unix

package vhs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/vhs/parser"
	"github.com/charmbracelet/vhs/token"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// Options tunes how Run replays a tape. The zero value works.
type Options struct {
	// Dir is the shell's working directory. Empty means the directory of the
	// tape file (so tapes in vhs/ reach demo scripts as testdata/…), or the
	// current directory for a tape parsed from a string.
	Dir string
	// PathPrepend lists directories put first on the shell's PATH, before
	// the runner's own PATH (e.g. the directory of a freshly built binary).
	PathPrepend []string
	// Env adds KEY=value pairs to the shell's environment, before the tape's
	// own Env commands (which win).
	Env []string
	// Home is the shell's HOME. Empty means a temporary directory that Run
	// creates and removes.
	Home string
	// Quiet is how long both sides of the pty must be silent before a
	// Screenshot is taken; zero means 100 ms.
	Quiet time.Duration
	// SettleLimit bounds that wait; zero means 5 s. A screen that never goes
	// quiet fails the Screenshot with ErrNotSettled.
	SettleLimit time.Duration
	// RealTime makes Type and key commands wait the tape's typing speed
	// between keys (VHS's default is 50 ms). By default the wait is capped at
	// KeyDelayCap: goldens are settled text, so only the order matters.
	RealTime bool
	// CloseGrace is how long the shell and everything it started get to exit
	// after SIGHUP at the end of the tape before SIGKILL; zero means 10 s.
	CloseGrace time.Duration
	// Logf, when set, receives one line per step (e.g. testing.T.Logf).
	Logf func(format string, args ...any)
}

// KeyDelayCap is the longest pause between two keys when Options.RealTime
// is off.
const KeyDelayCap = 10 * time.Millisecond

// EscapeSettle bounds the wait for quiet after an Escape key. Unlike a
// Screenshot, an Escape on a screen that never goes quiet is not an error:
// after this long the ESC byte has had its own read.
const EscapeSettle = 1 * time.Second

// SessionsEnd bounds how long Run waits, after a tape, for the jobdeck
// sessions it started to end: a session outlives its last client by its
// linger (TapeLinger) and then stops its jobs (their grace).
const SessionsEnd = 30 * time.Second

// TapeLinger is the linger of the sessions a tape starts
// ($JOBDECK_LINGER in the shell's environment).
const TapeLinger = time.Second

// ShellArgv is how the runner starts the shell, as VHS does for bash but
// without --login: no profile, no rc file, no history.
var ShellArgv = []string{"bash", "--noprofile", "--norc", "+o", "history"}

// Prompt is the shell's PS1. VHS colours its "> "; the text is the same.
const Prompt = "> "

// Run replays the tape: it starts bash in a pty of the tape's cell size
// (Settings.Cells), waits for the first prompt, executes every step and
// returns one Snapshot per Screenshot step, in order. At the end it ends the
// shell's session (Term.Close). Errors name the step and, for a Wait that
// timed out, show the screen; they wrap ErrRequire, ErrWaitTimeout,
// ErrNotSettled or ctx's error. Snapshots taken before an error are returned
// with it.
func (tp *Tape) Run(ctx context.Context, opts Options) (snaps []Snapshot, err error) {
	opts = opts.withDefaults()
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	path := strings.Join(append(append([]string{}, opts.PathPrepend...), os.Getenv("PATH")), string(os.PathListSeparator))
	for _, prog := range tp.Require {
		if !onPath(prog, path) {
			return nil, fmt.Errorf("%s: %w: Require %s: install it or put it on PATH", tp.Name, ErrRequire, prog)
		}
	}
	home := opts.Home
	if home == "" {
		if home, err = os.MkdirTemp("", "vhs-home-"); err != nil {
			return nil, fmt.Errorf("%s: make HOME: %w", tp.Name, err)
		}
		defer os.RemoveAll(home)
	}
	dir := opts.Dir
	if dir == "" && tp.Path != "" {
		dir = filepath.Dir(tp.Path)
	}
	bash, err := exec.LookPath(ShellArgv[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %w: bash: install bash", tp.Name, ErrRequire)
	}
	env, sessions, err := tp.environment(opts, path, home, bash)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tp.Name, err)
	}
	// Each replay's sessions end before Run returns, so that HOME can go.
	defer testkit.WaitSessions(sessions, SessionsEnd)

	cols, rows := tp.Cells()
	term, err := StartTerm(TermOptions{Argv: append([]string{bash}, ShellArgv[1:]...), Env: env, Dir: dir, Cols: cols, Rows: rows})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tp.Name, err)
	}
	defer func() {
		if cerr := term.Close(opts.CloseGrace); cerr != nil {
			err = errors.Join(err, fmt.Errorf("%s: end of tape: %w", tp.Name, cerr))
		}
	}()
	r := &replay{tp: tp, term: term, opts: opts, speed: tp.TypingSpeed, port: envValue(env, DemoPortEnv)}

	// Typing before bash prints its prompt makes the tty echo the keys once
	// and readline a second time; so wait for the prompt, then for quiet.
	if err := r.wait(ctx, "Line", regexp.MustCompile(regexp.QuoteMeta(strings.TrimSpace(Prompt))+`$`), tp.WaitTimeout); err != nil {
		return nil, fmt.Errorf("%s: waiting for the first shell prompt: %w", tp.Name, err)
	}
	if err := term.Settle(opts.Quiet, opts.SettleLimit); err != nil {
		return nil, fmt.Errorf("%s: after the first prompt: %w", tp.Name, err)
	}
	return r.snaps, r.steps(ctx, logf, cols, rows)
}

// steps executes every step of the tape, a mouse event (Escape then its
// report) as one, until one fails or ctx ends.
func (r *replay) steps(ctx context.Context, logf func(string, ...any), cols, rows int) error {
	tp, term := r.tp, r.term
	for i := 0; i < len(tp.Steps); i++ {
		c := tp.Steps[i]
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: step %d (%s): %w", tp.Name, i+1, describe(c), err)
		}
		if ev, ok, _ := mouseStep(tp.Steps, i, cols, rows); ok { // checked by ParseTape
			logf("%s: steps %d-%d: mouse %v", tp.Name, i+1, i+2, ev)
			term.SendMouse(ev)
			if err := sleep(ctx, r.delay(tp.Steps[i+1].Options)); err != nil {
				return err
			}
			i++
			continue
		}
		logf("%s: step %d: %s", tp.Name, i+1, describe(c))
		if err := r.step(ctx, c); err != nil {
			return fmt.Errorf("%s: step %d (%s): %w", tp.Name, i+1, describe(c), err)
		}
	}
	return nil
}

// environment is the shell's whole environment: a fixed one, nothing
// inherited but TMPDIR (NO_COLOR, COLORTERM, LC_* and the developer's
// settings must not change the goldens), with sessions of this replay's own
// (tapes run in the same worktree, and must not meet each other's jobs) in
// the directory sessions, and a free port for the demo dev server, this
// replay's alone.
func (tp *Tape) environment(opts Options, path, home, bash string) (env []string, sessions string, err error) {
	env = []string{
		"PATH=" + path, "HOME=" + home, "SHELL=" + bash, "PS1=" + Prompt,
		"TERM=xterm-256color", "LANG=C.UTF-8",
	}
	if tmp := os.Getenv("TMPDIR"); tmp != "" {
		env = append(env, "TMPDIR="+tmp)
	}
	sessions = filepath.Join(home, ".jobdeck-sessions")
	// A session outlives its last client by TapeLinger, not the default
	// 5 s: Run waits for that end after every tape.
	env = append(env, "JOBDECK_SESSION_DIR="+sessions, "JOBDECK_LINGER="+TapeLinger.String())
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	env = append(env, DemoPortEnv+"="+port)
	return append(append(env, opts.Env...), tp.Env...), sessions, nil
}

func (o Options) withDefaults() Options {
	if o.Quiet <= 0 {
		o.Quiet = 100 * time.Millisecond
	}
	if o.SettleLimit <= 0 {
		o.SettleLimit = 5 * time.Second
	}
	if o.CloseGrace <= 0 {
		o.CloseGrace = 10 * time.Second
	}
	return o
}

// replay is the state of one tape run.
type replay struct {
	tp        *Tape
	term      *Term
	opts      Options
	speed     time.Duration
	clipboard string
	snaps     []Snapshot
	port      string // DemoPortEnv's value, shown as PortPlaceholder
}

func (r *replay) step(ctx context.Context, c parser.Command) error {
	if k, ok := namedKey(c.Type); ok {
		delay := r.delay(c.Options)
		n, _ := strconv.Atoi(c.Args) // checked by ParseTape
		for range n {
			r.term.SendKey(k)
			if c.Type == token.ESCAPE {
				// A lone ESC followed quickly by a key reads as Alt+key; let
				// the program take the ESC on its own first. A screen that
				// keeps changing (a job floods a pane) never goes quiet: then
				// EscapeSettle is the pause, and the tape's Wait+Screen for
				// the Escape's effect is the real synchronisation.
				err := r.term.Settle(r.opts.Quiet, min(EscapeSettle, r.opts.SettleLimit))
				if err != nil && !errors.Is(err, ErrNotSettled) {
					return err
				}
			}
			if err := sleep(ctx, delay); err != nil {
				return err
			}
		}
		return nil
	}
	switch c.Type {
	case token.SET: // only TypingSpeed reaches here (ParseTape)
		if c.Options == "TypingSpeed" {
			r.speed, _ = time.ParseDuration(c.Args)
		}
	case token.TYPE:
		return r.typeText(ctx, c.Args, r.delay(c.Options))
	case token.CTRL, token.ALT, token.SHIFT:
		keys, err := chordKeys(c)
		if err != nil {
			return err
		}
		for _, k := range keys {
			r.term.SendKey(k)
		}
	case token.SLEEP:
		d, _ := time.ParseDuration(c.Args)
		return sleep(ctx, d)
	case token.WAIT:
		scope, rx, timeout, err := waitSpec(c, r.tp.WaitPattern, r.tp.WaitTimeout)
		if err != nil {
			return err
		}
		return r.wait(ctx, scope, rx, timeout)
	case token.SCREENSHOT:
		if err := r.term.Settle(r.opts.Quiet, r.opts.SettleLimit); err != nil {
			return err
		}
		cols, rows := r.term.Size()
		lines, cells := r.term.Shot()
		lines = normalizePort(lines, r.port)
		r.snaps = append(r.snaps, Snapshot{Tape: r.tp.Name, Name: screenshotName(c.Args), Cols: cols, Rows: rows, Lines: lines, Cells: cells})
	case token.COPY:
		r.clipboard = c.Args
	case token.PASTE:
		// VHS types the clipboard key by key, without bracketed paste.
		return r.typeText(ctx, r.clipboard, 0)
	case token.HIDE, token.SHOW:
		// Recording on/off in real VHS; nothing to do for text snapshots.
	default:
		return fmt.Errorf("%w: command %s", ErrUnsupported, c.Type)
	}
	return nil
}

// delay is the pause after each key: the step's @speed, else the tape's
// TypingSpeed, capped at KeyDelayCap unless RealTime.
func (r *replay) delay(option string) time.Duration {
	d := r.speed
	if option != "" {
		d, _ = time.ParseDuration(option)
	}
	if !r.opts.RealTime {
		d = min(d, KeyDelayCap)
	}
	return d
}

func (r *replay) typeText(ctx context.Context, s string, delay time.Duration) error {
	for _, ch := range s {
		r.term.SendText(string(ch))
		if err := sleep(ctx, delay); err != nil {
			return err
		}
	}
	return nil
}

// wait polls the screen (scope "Screen": all lines joined by "\n") or the
// cursor's line (scope "Line") every 10 ms, like VHS's Wait, until rx
// matches or timeout passes.
func (r *replay) wait(ctx context.Context, scope string, rx *regexp.Regexp, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		var text string
		if scope == "Line" {
			text = r.term.CurrentLine()
		} else {
			text = r.term.Screen()
		}
		if rx.MatchString(text) {
			return nil
		}
		if time.Now().After(deadline) {
			cols, rows := r.term.Size()
			msg := fmt.Sprintf("/%s/ did not match the %s within %v", rx, strings.ToLower(scope), timeout)
			if scope == "Line" {
				msg += fmt.Sprintf("; cursor line is %q", text)
			}
			if r.term.Exited() {
				msg += "; the shell has exited"
			}
			return fmt.Errorf("%w: %s\nscreen (%d×%d):\n%s", ErrWaitTimeout, msg, cols, rows, frame(r.term.Lines()))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// frame numbers the lines and marks their right end, for error messages.
func frame(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%3d │%s│\n", i+1, l)
	}
	return b.String()
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// onPath reports whether an executable file named prog is in one of the
// directories of the PATH-style list path (or prog is such a path itself).
func onPath(prog, path string) bool {
	isExec := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
	}
	if strings.ContainsRune(prog, '/') {
		return isExec(prog)
	}
	for _, d := range filepath.SplitList(path) {
		if d != "" && isExec(filepath.Join(d, prog)) {
			return true
		}
	}
	return false
}
