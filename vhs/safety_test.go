//go:build unix

package vhs

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// Terminal safety: a job's hostile output (escape sequences that set the
// title, write the clipboard, switch screens, turn on mouse reporting, reset
// the terminal, or ask it questions whose answers it types back) must reach
// the user's terminal inert. Two real terminals watch: the runner's x/vt
// emulator, instrumented to record every such sequence that reaches it, and
// tmux where installed. Each run opens jobdeck, records the terminal's state,
// starts the job from the palette, waits for its DONE line, and compares.
// The inert run (the same labels without escapes) shows what jobdeck itself
// does in the same steps; the negative controls cat the same bytes straight
// to the terminal and prove the checks can fail.

// hostileJob is one job whose output is checked.
type hostileJob struct {
	name    string
	command func(t *testing.T) string // the palette's /background argument
	done    string                    // regexp of the job's last line
}

func hostileJobs() []hostileJob {
	return []hostileJob{
		{"inert", func(t *testing.T) string { return "bash " + shellQuote(demoPath(t, "hostile.sh")) + " --inert" }, `hostile DONE`},
		{"own", func(t *testing.T) string { return "bash " + shellQuote(demoPath(t, "hostile.sh")) }, `hostile DONE`},
		{"shared-23", func(t *testing.T) string { return "bash " + shellQuote(testkit.ProcCase(t, "23-hostile-escapes.sh")) }, `pcase-23 DONE`},
	}
}

// watchedModes are the terminal modes a job must not change: mouse
// tracking and encodings, focus events, bracketed paste, the screens,
// cursor keys, cursor visibility, autowrap, origin.
var watchedModes = []ansi.Mode{
	ansi.ModeMouseX10, ansi.ModeMouseNormal, ansi.ModeMouseHighlight, ansi.ModeMouseButtonEvent,
	ansi.ModeMouseAnyEvent, ansi.ModeMouseExtSgr, ansi.ModeMouseExtUrxvt, ansi.ModeMouseExtUtf8,
	ansi.ModeFocusEvent, ansi.ModeBracketedPaste, ansi.ModeAltScreen, ansi.ModeAltScreenSaveCursor,
	ansi.DECMode(47), ansi.ModeCursorKeys, ansi.ModeTextCursorEnable, ansi.ModeAutoWrap, ansi.ModeOrigin,
}

// termWatch records what reaches an x/vt emulator: the window title, the
// modes' latest settings, and a count per kind of sequence a job's output
// must never deliver (title, clipboard, resets, queries, …).
type termWatch struct {
	mu     sync.Mutex
	title  string
	modes  map[ansi.Mode]bool
	counts map[string]int
}

// watch instruments term's emulator. Observers return false so the
// emulator's own handling still runs (queries are still answered into the
// program's input, as a real terminal would). It holds the screen lock, so
// no output is being parsed while handlers change.
func watch(term *Term) *termWatch {
	// Autowrap starts set (x/vt's default, as in xterm), so that the
	// renderer's own ?7l … ?7h around a frame's bottom-right cell leaves
	// it as it was; a job's lone ?7l would still show as a change.
	w := &termWatch{modes: map[ansi.Mode]bool{ansi.ModeAutoWrap: true}, counts: map[string]int{}}
	term.screenMu.Lock()
	defer term.screenMu.Unlock()
	e := term.emu
	setMode := func(m ansi.Mode, on bool) {
		w.mu.Lock()
		w.modes[m] = on
		w.mu.Unlock()
	}
	e.SetCallbacks(vt.Callbacks{
		Title: func(s string) {
			w.mu.Lock()
			w.title = s
			w.mu.Unlock()
		},
		EnableMode:  func(m ansi.Mode) { setMode(m, true) },
		DisableMode: func(m ansi.Mode) { setMode(m, false) },
	})
	count := func(kind string) {
		w.mu.Lock()
		w.counts[kind]++
		w.mu.Unlock()
	}
	// Not OSC 12 (cursor colour): jobdeck's renderer sets it itself when
	// the palette's cursor shows, in the inert run too.
	for cmd, kind := range map[int]string{
		0: "title (OSC 0)", 1: "icon name (OSC 1)", 2: "title (OSC 2)", 4: "palette (OSC 4)",
		7: "cwd (OSC 7)", 8: "hyperlink (OSC 8)", 10: "foreground (OSC 10)", 11: "background (OSC 11)",
		52: "clipboard (OSC 52)", 104: "palette reset (OSC 104)", 1337: "iTerm (OSC 1337)",
	} {
		e.RegisterOscHandler(cmd, func([]byte) bool { count(kind); return false })
	}
	for cmd, kind := range map[int]string{
		'c': "query DA1", ansi.Command('>', 0, 'c'): "query DA2", ansi.Command('>', 0, 'q'): "query XTVERSION",
		'n': "query DSR", ansi.Command('?', 0, 'n'): "query DSR",
		't': "window op / report", ansi.Command(0, '!', 'p'): "soft reset DECSTR",
		ansi.Command('?', '$', 'p'): "query DECRQM", ansi.Command(0, '$', 'p'): "query DECRQM",
		// Not DECSTBM (scroll region): the renderer may scroll with it
		// itself; the tmux test compares the region before and after.
	} {
		e.RegisterCsiHandler(cmd, func(ansi.Params) bool { count(kind); return false })
	}
	for cmd, kind := range map[int]string{
		'c': "full reset RIS", ansi.Command(0, '(', '0'): "line drawing charset",
	} {
		e.RegisterEscHandler(cmd, func() bool { count(kind); return false })
	}
	for cmd, kind := range map[int]string{
		ansi.Command(0, '$', 'q'): "query DECRQSS", 'q': "sixel",
	} {
		e.RegisterDcsHandler(cmd, func(ansi.Params, []byte) bool { count(kind); return false })
	}
	w.title = "" // set again by the next OSC 0/2
	return w
}

// termState is what termWatch saw up to one moment.
type termState struct {
	title  string
	modes  map[ansi.Mode]bool
	counts map[string]int
}

func (w *termWatch) state() termState {
	w.mu.Lock()
	defer w.mu.Unlock()
	return termState{title: w.title, modes: maps.Clone(w.modes), counts: maps.Clone(w.counts)}
}

// since returns the counts that grew from before to s, as "kind +n".
func (s termState) since(before termState) []string {
	var grew []string
	for k, n := range s.counts {
		if d := n - before.counts[k]; d > 0 {
			grew = append(grew, fmt.Sprintf("%s +%d", k, d))
		}
	}
	slices.Sort(grew)
	return grew
}

// modeDiff lists the watched modes whose setting differs between a and b.
func modeDiff(a, b termState) []string {
	var diff []string
	for _, m := range watchedModes {
		if a.modes[m] != b.modes[m] {
			diff = append(diff, fmt.Sprintf("mode %d: %v -> %v", m.Mode(), a.modes[m], b.modes[m]))
		}
	}
	return diff
}

// TestHostileOutputInertInVT runs each hostile job in jobdeck inside the
// runner's x/vt terminal and checks that nothing of it reached the terminal:
// no title or clipboard write, no reset, no query (so nothing was typed
// back into jobdeck), the same modes and alternate screen as before the
// job, and an empty palette afterwards.
func TestHostileOutputInertInVT(t *testing.T) {
	t.Parallel()
	for _, job := range hostileJobs() {
		t.Run(job.name, func(t *testing.T) {
			t.Parallel()
			cmd := job.command(t)
			term := startShell(t, 100, 30)
			w := watch(term)
			typeLine(term, "jobdeck")
			waitScreen(t, term, "Screen", `No jobs yet: press`, 15*time.Second)
			// The empty screen can show before the first fetch; the window
			// title names the session once that fetch brings it (the list's
			// title then does too): measure after that.
			waitScreen(t, term, "Screen", `jobs · `, 15*time.Second)
			if err := term.Settle(100*time.Millisecond, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			before := w.state()
			t.Logf("jobdeck's own start: title %q, sequences %v, modes %v", before.title, before.counts, before.modes)
			if !term.AltScreen() {
				t.Fatal("jobdeck is not on the alternate screen; the check below would mean nothing")
			}

			typeLine(term, ":background "+cmd)
			waitScreen(t, term, "Screen", job.done, 15*time.Second)
			waitScreen(t, term, "Screen", `\n0/8 running · 1 finished`, 15*time.Second)
			if err := term.Settle(200*time.Millisecond, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			after := w.state()

			if grew := after.since(before); len(grew) > 0 {
				t.Errorf("the job's output reached the terminal: %s", strings.Join(grew, ", "))
			}
			if after.title != before.title {
				t.Errorf("window title changed from %q to %q", before.title, after.title)
			}
			if d := modeDiff(before, after); len(d) > 0 {
				t.Errorf("terminal modes changed: %s", strings.Join(d, "; "))
			}
			if !term.AltScreen() {
				t.Error("jobdeck's alternate screen was switched off while the console runs")
			}

			// Nothing was typed into jobdeck: a fresh palette holds only the
			// ":" that opened it.
			term.SendText(":")
			waitScreen(t, term, "Screen", `\nbackground <command> · job-kill`, 5*time.Second)
			if err := term.Settle(100*time.Millisecond, 5*time.Second); err != nil {
				t.Fatal(err)
			}
			lines := term.Lines()
			if got := lines[len(lines)-2]; got != ":" {
				t.Errorf("palette input = %q, want %q (stray input reached jobdeck)", got, ":")
			}
			term.SendKey(uv.KeyPressEvent{Code: vt.KeyEscape})
			waitScreen(t, term, "Screen", `\n0/8 running · 1 finished`, 5*time.Second)
			term.SendText("q")
			waitScreen(t, term, "Line", `>$`, 15*time.Second)
			if t.Failed() {
				t.Logf("screen before quitting:\n%s", frame(lines))
			}
		})
	}
}

// TestHostileOutputNegativeControlVT cats the same bytes straight to the
// x/vt terminal: the watch must see the title, the clipboard write, the
// queries and the mouse modes, so the checks above can fail.
func TestHostileOutputNegativeControlVT(t *testing.T) {
	t.Parallel()
	term := startShell(t, 100, 30)
	w := watch(term)
	before := w.state()
	typeLine(term, "bash "+shellQuote(demoPath(t, "hostile.sh"))+` >"$HOME/hostile.out" 2>&1; cat "$HOME/hostile.out"`)
	waitScreen(t, term, "Screen", `hostile DONE`, 15*time.Second)
	if err := term.Settle(200*time.Millisecond, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	after := w.state()
	grew := strings.Join(after.since(before), ", ")
	for _, want := range []string{"title (OSC 2)", "clipboard (OSC 52)", "query DSR", "query DA1", "full reset RIS"} {
		if !strings.Contains(grew, want) {
			t.Errorf("cat of the hostile bytes: the watch did not see %s (saw: %s)", want, grew)
		}
	}
	if after.title == before.title {
		t.Errorf("cat of the hostile bytes left the title at %q", after.title)
	}
	if !after.modes[ansi.ModeMouseNormal] || !after.modes[ansi.ModeMouseExtSgr] {
		t.Errorf("cat of the hostile bytes: mouse modes 1000/1006 not on (%v)", after.modes)
	}
	if len(modeDiff(before, after)) == 0 {
		t.Error("cat of the hostile bytes changed no watched mode")
	}
}

// tmuxServer is a private tmux server (its own socket, no config file) for
// one test; it is killed at cleanup.
type tmuxServer struct {
	t      testing.TB
	socket string
	env    []string
}

func newTmux(t testing.TB) *tmuxServer {
	t.Helper()
	needPrograms(t, "tmux")
	bin := jobdeckDir(t)
	home := t.TempDir()
	env := []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home, "PS1=" + Prompt, "TERM=xterm-256color", "LANG=C.UTF-8",
		// The server's own files (socket directory) stay in this test's temp dir.
		"TMUX_TMPDIR=" + t.TempDir(),
		// So do jobdeck's sessions (see Tape.Run).
		"JOBDECK_SESSION_DIR=" + filepath.Join(home, ".jobdeck-sessions"),
	}
	s := &tmuxServer{t: t, socket: fmt.Sprintf("jdvhs-%d-%d", os.Getpid(), time.Now().UnixNano()), env: env}
	t.Cleanup(func() {
		_, _ = s.run("kill-server")
		testkit.WaitSessions(filepath.Join(home, ".jobdeck-sessions"), SessionsEnd)
	})
	return s
}

// run runs one tmux command against the server and returns its output.
func (s *tmuxServer) run(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-L", s.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = s.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (s *tmuxServer) must(args ...string) string {
	s.t.Helper()
	out, err := s.run(args...)
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// start opens session name (cols × rows) running bash without rc files,
// with OSC 52 accepted into tmux's paste buffers, and waits for the prompt.
func (s *tmuxServer) start(name string, cols, rows int) {
	s.t.Helper()
	dir, _ := os.Getwd()
	s.must("new-session", "-d", "-s", name, "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), "-c", dir,
		// PS1 is given here: tmux does not pass it on from its environment.
		"env PS1='"+Prompt+"' bash --noprofile --norc +o history")
	s.must("set-option", "-s", "set-clipboard", "on")
	s.waitPane(name, `(?m)^>\s*$`, 10*time.Second)
}

// capture returns the pane's visible text.
func (s *tmuxServer) capture(name string) string {
	s.t.Helper()
	return s.must("capture-pane", "-p", "-t", name)
}

// waitPane polls the pane's text until re matches.
func (s *tmuxServer) waitPane(name, re string, timeout time.Duration) {
	s.t.Helper()
	rx := regexp.MustCompile(re)
	var text string
	waitFor(s.t, fmt.Sprintf("/%s/ in tmux pane %s", re, name), func() bool {
		text = s.capture(name)
		return rx.MatchString(text)
	}, timeout)
}

// paneFormats are tmux's view of the pane state a job must not change.
var paneFormats = []string{
	"pane_title", "alternate_on", "mouse_any_flag", "mouse_standard_flag", "mouse_button_flag",
	"mouse_all_flag", "mouse_sgr_flag", "mouse_utf8_flag", "cursor_flag", "wrap_flag",
	"origin_flag", "keypad_cursor_flag", "keypad_flag", "insert_flag",
	"scroll_region_upper", "scroll_region_lower",
}

// paneState reads paneFormats for the pane and tmux's paste buffers.
func (s *tmuxServer) paneState(name string) map[string]string {
	s.t.Helper()
	var f strings.Builder
	for i, k := range paneFormats {
		if i > 0 {
			f.WriteString("\x1f")
		}
		f.WriteString("#{" + k + "}")
	}
	vals := strings.Split(strings.TrimSuffix(s.must("display-message", "-p", "-t", name, f.String()), "\n"), "\x1f")
	st := map[string]string{}
	for i, k := range paneFormats {
		if i < len(vals) {
			st[k] = vals[i]
		}
	}
	st["buffers"] = strings.TrimSpace(s.must("list-buffers"))
	return st
}

func stateDiff(a, b map[string]string) []string {
	var diff []string
	for _, k := range append(slices.Clone(paneFormats), "buffers") {
		if a[k] != b[k] {
			diff = append(diff, fmt.Sprintf("%s: %q -> %q", k, a[k], b[k]))
		}
	}
	return diff
}

// TestHostileOutputInertInTmux runs each hostile job in jobdeck inside tmux
// (set-clipboard on) and compares tmux's pane state before and after: title,
// paste buffers, alternate screen, mouse and other modes; then checks the
// palette holds nothing typed by query answers.
func TestHostileOutputInertInTmux(t *testing.T) {
	t.Parallel()
	for _, job := range hostileJobs() {
		t.Run(job.name, func(t *testing.T) {
			t.Parallel()
			cmd := job.command(t)
			s := newTmux(t)
			s.start("jd", 100, 30)
			s.must("send-keys", "-t", "jd", "-l", "jobdeck")
			s.must("send-keys", "-t", "jd", "Enter")
			s.waitPane("jd", `No jobs yet: press`, 15*time.Second)
			s.waitPane("jd", `jobs · `, 15*time.Second) // the session fetched: see TestHostileOutputInertInVT
			before := s.paneState("jd")
			if before["alternate_on"] != "1" {
				t.Fatalf("jobdeck is not on the alternate screen in tmux: %v", before)
			}

			s.must("send-keys", "-t", "jd", "-l", ":background "+cmd)
			s.must("send-keys", "-t", "jd", "Enter")
			s.waitPane("jd", job.done, 15*time.Second)
			s.waitPane("jd", `\n0/8 running · 1 finished`, 15*time.Second)
			after := s.paneState("jd")
			if d := stateDiff(before, after); len(d) > 0 {
				t.Errorf("the job changed the tmux pane: %s\npane:\n%s", strings.Join(d, "; "), s.capture("jd"))
			}

			s.must("send-keys", "-t", "jd", "-l", ":")
			s.waitPane("jd", `\nbackground <command> · job-kill`, 5*time.Second)
			lines := strings.Split(strings.TrimRight(s.capture("jd"), "\n"), "\n")
			if got := strings.TrimRight(lines[len(lines)-2], " "); got != ":" {
				t.Errorf("palette input = %q, want %q (stray input reached jobdeck)", got, ":")
			}
			s.must("send-keys", "-t", "jd", "Escape")
			s.waitPane("jd", `\n0/8 running · 1 finished`, 5*time.Second)
			s.must("send-keys", "-t", "jd", "-l", "q")
			s.waitPane("jd", `(?m)^>\s*$`, 15*time.Second)
		})
	}
}

// TestHostileOutputNegativeControlTmux cats the own hostile bytes straight
// into a tmux pane: the title, the paste buffers and the mouse flags must
// change, so the comparison above can fail.
func TestHostileOutputNegativeControlTmux(t *testing.T) {
	t.Parallel()
	s := newTmux(t)
	s.start("raw", 100, 30)
	before := s.paneState("raw")
	s.must("send-keys", "-t", "raw", "-l", "bash "+shellQuote(demoPath(t, "hostile.sh"))+` >"$HOME/hostile.out" 2>&1; cat "$HOME/hostile.out"`)
	s.must("send-keys", "-t", "raw", "Enter")
	s.waitPane("raw", `hostile DONE`, 15*time.Second)
	after := s.paneState("raw")
	for _, k := range []string{"pane_title", "buffers", "mouse_any_flag", "alternate_on"} {
		if before[k] == after[k] {
			t.Errorf("cat of the hostile bytes left tmux's %s at %q", k, after[k])
		}
	}
}
