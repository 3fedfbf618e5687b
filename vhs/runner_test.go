//go:build unix

package vhs

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/vhs/lexer"
	"github.com/charmbracelet/vhs/parser"
	"github.com/charmbracelet/x/vt"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// header80x24 is a tape header that gives an 80×24 grid by the cell rule.
const header80x24 = "Set FontSize 16\nSet Padding 20\nSet Width 870\nSet Height 515\nSet TypingSpeed 5ms\n"

// runInline parses src (prefixed with header80x24) and replays it with bash
// only on PATH's usual places.
func runInline(t *testing.T, src string) ([]Snapshot, error) {
	t.Helper()
	tp, err := ParseTape("inline", header80x24+src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return tp.Run(t.Context(), Options{Home: t.TempDir(), Dir: t.TempDir(), Logf: t.Logf})
}

// waitFor is testkit.WaitFor with the limit last.
func waitFor(t testing.TB, what string, cond func() bool, limit time.Duration) {
	t.Helper()
	testkit.WaitFor(t, limit, what, cond)
}

// encodeKeys sends keys to a fresh emulator (after writing setup to it, e.g.
// a mode change) and returns the bytes the emulator produced.
func encodeKeys(t *testing.T, setup string, keys []uv.KeyPressEvent) string {
	t.Helper()
	emu := vt.NewSafeEmulator(20, 4)
	if _, err := emu.Write([]byte(setup)); err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		var b strings.Builder
		buf := make([]byte, 64)
		for {
			n, err := emu.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				got <- b.String()
				return
			}
		}
	}()
	for _, k := range keys {
		emu.SendKey(k)
	}
	_ = emu.InputPipe().(interface{ Close() error }).Close()
	return <-got
}

func parseOne(t *testing.T, line string) parser.Command {
	t.Helper()
	p := parser.New(lexer.New(line))
	cmds := p.Parse()
	if len(p.Errors()) > 0 || len(cmds) != 1 {
		t.Fatalf("%q: parse errors %v, %d commands", line, p.Errors(), len(cmds))
	}
	return cmds[0]
}

func TestKeyEncoding(t *testing.T) {
	t.Parallel()
	const decckm = "\x1b[?1h" // application cursor keys
	tests := []struct {
		line, setup, want string
	}{
		{"Enter", "", "\r"},
		{"Enter 3", "", "\r\r\r"},
		{"Tab", "", "\t"},
		{"Space", "", " "},
		{"Backspace", "", "\x7f"},
		{"Delete", "", "\x1b[3~"},
		{"Insert", "", "\x1b[2~"},
		{"Escape", "", "\x1b"},
		{"PageUp", "", "\x1b[5~"},
		{"PageDown", "", "\x1b[6~"},
		{"Up", "", "\x1b[A"},
		{"Up", decckm, "\x1bOA"},
		{"Down 2", decckm, "\x1bOB\x1bOB"},
		{"Left", "", "\x1b[D"},
		{"Right", decckm, "\x1bOC"},
		{"Ctrl+C", "", "\x03"},
		{"Ctrl+c", "", "\x03"},
		{"Ctrl+Alt+x", "", "\x1b\x18"},
		{"Ctrl+[", "", "\x1b"},
		{"Ctrl+\\", "", "\x1c"},
		{"Ctrl+@", "", "\x00"},
		{"Ctrl+Space", "", "\x00"},
		{"Ctrl+-", "", "\x1f"},
		{"Alt+b", "", "\x1bb"},
		{"Alt+ab", "", "\x1ba\x1bb"},
		{"Alt+Enter", "", "\x1b\r"},
		{"Alt+[", "", "\x1b["},
		{"Shift+Tab", "", "\x1b[Z"},
		{"Shift+a", "", "A"},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			t.Parallel()
			c := parseOne(t, tc.line)
			var keys []uv.KeyPressEvent
			if k, ok := namedKey(c.Type); ok {
				if err := checkStep(c); err != nil {
					t.Fatal(err)
				}
				reps, _ := strconv.Atoi(c.Args)
				for range reps {
					keys = append(keys, k)
				}
			} else {
				var err error
				if keys, err = chordKeys(c); err != nil {
					t.Fatal(err)
				}
			}
			if got := encodeKeys(t, tc.setup, keys); got != tc.want {
				t.Errorf("%s with setup %q: sent %q, want %q", tc.line, tc.setup, got, tc.want)
			}
		})
	}
}

func TestUnsupportedChords(t *testing.T) {
	t.Parallel()
	for _, line := range []string{"Ctrl+Shift+O", "Ctrl+Enter", "Ctrl+Backspace", "Shift+Enter", "Shift+["} {
		c := parseOne(t, line)
		if _, err := chordKeys(c); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: err = %v, want ErrUnsupported", line, err)
		}
	}
}

func TestParseTapeRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      error
	}{
		{"unknown command", "Foo 3\n", ErrSyntax},
		{"word swallowed after Type", "Type \"x\"\nFoo 3\n", ErrSyntax},
		{"Home is not VHS v0.10.0", "Home\n", ErrSyntax},
		{"End is not VHS v0.10.0", "End\n", ErrSyntax},
		{"empty tape", "# nothing\n", ErrSyntax},
		{"width not a number", "Set Width abc\nEnter\n", ErrBadValue},
		{"cells instead of pixels", "Set Width 80\nSet Height 24\nEnter\n", ErrBadValue},
		{"font size zero", "Set FontSize 0\nEnter\n", ErrBadValue},
		{"bad typing speed", "Set TypingSpeed fast\nEnter\n", ErrBadValue},
		{"bad cursor blink", "Set CursorBlink maybe\nEnter\n", ErrSyntax},
		{"bad JSON theme", "Set Theme { nope }\nEnter\n", ErrBadValue},
		{"other shell", "Set Shell \"zsh\"\nEnter\n", ErrUnsupported},
		{"Set after an action", "Enter\nSet FontSize 12\n", ErrUnsupported},
		{"fractional repeat", "Enter 2.5\n", ErrBadValue},
		{"zero repeat", "Enter 0\n", ErrBadValue},
		{"bad Env name", "Env \"A B\" \"y\"\nEnter\n", ErrBadValue},
		{"unencodable chord", "Ctrl+Shift+O\n", ErrUnsupported},
		{"duplicate screenshot", "Screenshot a.png\nScreenshot out/a.png\n", ErrBadValue},
		{"screenshot not png", "Screenshot a.txt\n", ErrSyntax},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseTape("bad", tc.src)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	// Positive control: the same kinds of lines, valid.
	tp, err := ParseTape("good", "Set Width 1200\nSet Height 600\nSet TypingSpeed 10ms\nSet Theme \"Dracula\"\nEnv FOO \"bar\"\nType \"x\"\nSet TypingSpeed 1ms\nCtrl+C\nEnter 2\nScreenshot a.png\n")
	if err != nil {
		t.Fatalf("valid tape rejected: %v", err)
	}
	if len(tp.Steps) != 5 || tp.Env[0] != "FOO=bar" || tp.TypingSpeed != 10*time.Millisecond {
		t.Errorf("steps %d, env %v, speed %v", len(tp.Steps), tp.Env, tp.TypingSpeed)
	}
}

// TestCellsMatchMeasuredVHS pins the Width/Height → cells rule: without
// ttyd's page padding it reproduces the grids measured in real VHS v0.10.0
// (stty size, DejaVu Sans Mono), and Cells adds ttyd's
// 5 px padding.
func TestCellsMatchMeasuredVHS(t *testing.T) {
	t.Parallel()
	tests := []struct {
		width, height, font, padding int
		pagePad                      int
		cols, rows                   int
	}{
		{1200, 600, 22, 60, 0, 76, 19},
		{800, 400, 16, 10, 0, 76, 20},
		{1000, 600, 14, 0, 0, 109, 37},
		{1200, 600, 22, 60, ttydPadding, 75, 18},
		{870, 515, 16, 20, ttydPadding, 80, 24},
		{1070, 630, 16, 20, ttydPadding, 100, 30},
		{1270, 820, 16, 20, ttydPadding, 120, 40},
	}
	for _, tc := range tests {
		s := DefaultSettings()
		s.Width, s.Height, s.FontSize, s.Padding = tc.width, tc.height, tc.font, tc.padding
		cols, rows := s.grid(tc.pagePad)
		if cols != tc.cols || rows != tc.rows {
			t.Errorf("%d×%d px, font %d, padding %d, page padding %d: %d×%d cells, want %d×%d",
				tc.width, tc.height, tc.font, tc.padding, tc.pagePad, cols, rows, tc.cols, tc.rows)
		}
	}
}

func TestWaitTimeoutShowsScreen(t *testing.T) {
	t.Parallel()
	start := time.Now()
	_, err := runInline(t, "Type \"echo hello\"\nEnter\nWait+Screen /hello\\n/\nWait+Screen@300ms /nope/\n")
	if !errors.Is(err, ErrWaitTimeout) {
		t.Fatalf("err = %v, want ErrWaitTimeout", err)
	}
	msg := err.Error()
	for _, want := range []string{"step 4 (Wait+Screen@300ms /nope/)", "/nope/ did not match the screen within 300ms", "  2 │hello│"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v; the timeout is 300ms", d)
	}
}

func TestRequireMissingProgram(t *testing.T) {
	t.Parallel()
	_, err := runInline(t, "Require no-such-program-for-vhs-tests\nType \"x\"\n")
	if !errors.Is(err, ErrRequire) {
		t.Fatalf("err = %v, want ErrRequire", err)
	}
}

// TestShellSetup checks the shell's environment and that the emulator's
// answers to queries reach the program (a DA1 query would hang otherwise).
func TestShellSetup(t *testing.T) {
	// Not parallel: t.Setenv proves the developer's NO_COLOR does not leak.
	t.Setenv("NO_COLOR", "1")
	snaps, err := runInline(t, `Env EXTRA "from tape"
Type 'echo "[$TERM] [$LANG] [${NO_COLOR-unset}] [$EXTRA]" $(stty size | (read r c; echo ${c}x$r))'
Enter
Wait+Screen /\n\[xterm/
Type "stty -echo; printf '\033[c'; read -r -d c; stty echo; echo; echo answered"
Enter
Wait+Screen@5s /\nanswered/
Screenshot env.png
`)
	if err != nil {
		t.Fatal(err)
	}
	screen := strings.Join(snaps[0].Lines, "\n")
	if !strings.Contains(screen, "[xterm-256color] [C.UTF-8] [unset] [from tape] 80x24") {
		t.Errorf("environment line missing:\n%s", screen)
	}
}

func TestSettle(t *testing.T) {
	t.Parallel()
	start := func(t *testing.T, script string) *Term {
		t.Helper()
		term, err := StartTerm(TermOptions{Argv: []string{"sh", "-c", script}, Env: []string{"PATH=" + os.Getenv("PATH")}, Cols: 40, Rows: 5})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := term.Close(5 * time.Second); err != nil {
				t.Error(err)
			}
		})
		return term
	}
	t.Run("quiet counts from our last key", func(t *testing.T) {
		t.Parallel()
		term := start(t, "stty -echo; echo ready; exec sleep 60")
		waitFor(t, "ready", func() bool { return strings.Contains(term.Screen(), "ready") }, 5*time.Second)
		if err := term.Settle(50*time.Millisecond, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		term.SendText("x") // no echo: only input is recent
		begin := time.Now()
		if err := term.Settle(300*time.Millisecond, 5*time.Second); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(begin); d < 250*time.Millisecond {
			t.Errorf("Settle returned after %v; it must wait 300ms from the key press", d)
		}
	})
	// The two below use output with no pauses of its own (shell builtins
	// only), and quiet times far above any scheduling stall, so that a
	// loaded machine cannot fake a quiet spell.
	t.Run("waits for output to stop", func(t *testing.T) {
		t.Parallel()
		term := start(t, "i=0; while [ $i -lt 20000 ]; do printf .; i=$((i+1)); done; echo; echo done; exec sleep 60")
		if err := term.Settle(time.Second, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(term.Screen(), "\ndone") {
			t.Errorf("settled before the output ended:\n%s", term.Screen())
		}
	})
	t.Run("never quiet fails", func(t *testing.T) {
		t.Parallel()
		term := start(t, "while :; do printf .; done")
		if err := term.Settle(time.Second, 2*time.Second); !errors.Is(err, ErrNotSettled) {
			t.Fatalf("err = %v, want ErrNotSettled", err)
		}
	})
}

// TestGoldenUpdateAndMismatch replays the smoke tape into a scratch golden
// directory: -update writes, the same run then passes, and a golden with one
// changed character fails with a readable diff (the negative control).
func TestGoldenUpdateAndMismatch(t *testing.T) {
	t.Parallel()
	tp, err := ReadTape("smoke.tape")
	if err != nil {
		t.Fatal(err)
	}
	snaps, err := tp.Run(t.Context(), Options{PathPrepend: []string{jobdeckDir(t)}, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := snaps[0]
	if err := CheckGolden(dir, s, false); !errors.Is(err, ErrGoldenMissing) {
		t.Fatalf("before update: err = %v, want ErrGoldenMissing", err)
	}
	if err := CheckGolden(dir, s, true); err != nil {
		t.Fatal(err)
	}
	if err := CheckGolden(dir, s, false); err != nil {
		t.Fatalf("right after update: %v", err)
	}
	path := GoldenPath(dir, s.Tape, s.Name)
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), "# smoke.tape: colors.png at 80x24 cells\n") {
		t.Errorf("golden header: %q", strings.SplitN(string(b), "\n", 2)[0])
	}
	changed := strings.Replace(string(b), "red plain", "red plane", 1)
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	err = CheckGolden(dir, s, false)
	if !errors.Is(err, ErrGoldenMismatch) {
		t.Fatalf("changed golden: err = %v, want ErrGoldenMismatch", err)
	}
	for _, want := range []string{"-   2 │red plane│", "+   2 │red plain│", "    1 │> printf"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("diff lacks %q:\n%v", want, err)
		}
	}
	if stale := StaleGoldens(dir, "smoke", []string{"keys"}); len(stale) != 1 || filepath.Base(stale[0]) != "colors.golden" {
		t.Errorf("StaleGoldens = %v, want [colors.golden]", stale)
	}
}

// TestCloseEndsSession checks the end of a tape: jobs of the shell die with
// the hangup and Close reports nothing; a process that ignores SIGHUP is
// killed and named in Close's error; nothing of the session is left.
func TestCloseEndsSession(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	tests := []struct {
		name, cmd string
		wantErr   bool
	}{
		{"background job gets the hangup", "sleep 301 &", false},
		{"nohup job is killed and reported", "nohup sleep 302 >/dev/null 2>&1 &", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			term, err := StartTerm(TermOptions{
				Argv: append([]string{bash}, ShellArgv[1:]...),
				Env:  []string{"PATH=" + os.Getenv("PATH"), "PS1=" + Prompt, "HOME=" + t.TempDir(), "TERM=xterm-256color"},
				Cols: 80, Rows: 10,
			})
			if err != nil {
				t.Fatal(err)
			}
			sid := term.cmd.Process.Pid
			waitFor(t, "prompt", func() bool { return term.CurrentLine() == ">" }, 10*time.Second)
			term.SendText(tc.cmd + "\r")
			waitFor(t, "sleep in the session", func() bool {
				for _, p := range sessionProcs(sid) {
					if p.comm == "sleep" {
						return true
					}
				}
				return false
			}, 10*time.Second)
			err = term.Close(time.Second)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), "(sleep,") {
					t.Errorf("Close = %v, want an error naming sleep", err)
				}
			} else if err != nil {
				t.Errorf("Close = %v, want nil", err)
			}
			waitFor(t, "empty session", func() bool { return len(sessionProcs(sid)) == 0 }, 5*time.Second)
		})
	}
}

// TestCloseEndsSessionIgnoringHangup runs TestCloseEndsSession in a copy
// of this test binary started with SIGHUP ignored, as under nohup(1) or a
// CI runner that ignores it: the shell still starts with SIGHUP at its
// default, so Close's hangup still ends it and its background job.
func TestCloseEndsSessionIgnoringHangup(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	cmd := exec.CommandContext(t.Context(), "sh", "-c", `trap '' HUP; exec "$@"`, "sh",
		os.Args[0], "-test.run", "^TestCloseEndsSession$", "-test.count", "1", "-test.v")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestCloseEndsSession/background_job_gets_the_hangup") {
		t.Fatalf("TestCloseEndsSession with SIGHUP ignored: %v\n%s", err, out)
	}
}

// TestScreenReadsDuringOutput reads the screen while the program floods it;
// under -race this catches reads of cells that the output goroutine is
// changing.
func TestScreenReadsDuringOutput(t *testing.T) {
	t.Parallel()
	term, err := StartTerm(TermOptions{Argv: []string{"sh", "-c", "while :; do printf 'abc\\033[2Jdef\\n'; done"}, Env: []string{"PATH=" + os.Getenv("PATH")}, Cols: 20, Rows: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := term.Close(5 * time.Second); err != nil {
			t.Error(err)
		}
	}()
	waitFor(t, "output", func() bool { return strings.Contains(term.Screen(), "def") }, 10*time.Second)
	for range 200 {
		_ = term.Lines()
		_ = term.CurrentLine()
	}
}
