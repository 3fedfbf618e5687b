package ui

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/model"
)

// t0 is the fixed start of the fixtures; the clock reads t0+75s.
var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func fixedNow() time.Time { return t0.Add(75 * time.Second) }

// testKeys is the console's key map as it ships (DefaultKeyMap): the
// goldens show the footer a user sees.
var testKeys = DefaultKeyMap

// keyMsg builds the key press a terminal would send for a key name.
func keyMsg(s string) tea.KeyPressMsg {
	named := map[string]tea.KeyPressMsg{
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "tab": {Code: tea.KeyTab},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift}, "up": {Code: tea.KeyUp},
		"down": {Code: tea.KeyDown}, "pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown},
		"home": {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd}, "backspace": {Code: tea.KeyBackspace},
		"ctrl+c": {Code: 'c', Mod: tea.ModCtrl}, "space": {Code: ' ', Text: " "},
	}
	if k, ok := named[s]; ok {
		return k
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// Messages of the test effects: ticks are held until fired; a wait is
// armed until pumped.
type (
	tickedMsg struct {
		d   time.Duration
		msg tea.Msg
	}
	waitArmedMsg struct{}
)

// harness drives a Model synchronously: it runs the commands Update
// returns (core calls complete at once on the fake core), holds ticks until
// fired and delivers events when pumped.
type harness struct {
	t       *testing.T
	m       *Model
	core    *fakeCore
	ticks   []tickedMsg
	armed   bool
	quit    bool
	fetches int // fetch commands run
}

func newHarness(t *testing.T, core *fakeCore, w, height int, opts Options) *harness {
	t.Helper()
	if opts.KeyMap.Quit.Keys() == nil {
		opts.KeyMap = testKeys()
	}
	if opts.Now == nil {
		opts.Now = fixedNow
	}
	m := New(t.Context(), core, opts)
	h := &harness{t: t, m: m, core: core}
	m.fx = effects{
		// The clock stands still: every output event comes within a frame
		// of the last fetch, so frames are scheduled and fired by hand.
		clock: func() time.Time { return t0 },
		tick: func(d time.Duration, msg tea.Msg) tea.Cmd {
			return func() tea.Msg { return tickedMsg{d, msg} }
		},
		wait: func(_ context.Context, _ Subscription) tea.Cmd {
			return func() tea.Msg { return waitArmedMsg{} }
		},
		// Fetches run at once, like every other command here.
		fetch: func(ctx context.Context, c Core, v screenView, overlay *model.JobID) tea.Cmd {
			return func() tea.Msg {
				h.fetches++
				return fetch(ctx, c, v, overlay)
			}
		},
	}
	t.Cleanup(m.Close)
	h.run(m.Init())
	h.send(tea.WindowSizeMsg{Width: w, Height: height})
	return h
}

// send delivers msg and runs what follows.
func (h *harness) send(msg tea.Msg) {
	h.t.Helper()
	_, cmd := h.m.Update(msg)
	h.run(cmd)
}

func (h *harness) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			h.run(c)
		}
	case tickedMsg:
		h.ticks = append(h.ticks, msg)
	case waitArmedMsg:
		h.armed = true
	case tea.QuitMsg:
		h.quit = true
	default:
		h.send(msg)
	}
}

// press sends key presses by name ("x", "tab", "ctrl+c").
func (h *harness) press(keys ...string) {
	for _, k := range keys {
		h.send(keyMsg(k))
	}
}

// typeText types s one rune at a time.
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(keyMsg(string(r)))
	}
}

// command opens the palette, types line and presses Enter, as a user
// running a command (`/background …`) does.
func (h *harness) command(line string) {
	h.t.Helper()
	h.press("/")
	h.typeText(line)
	h.press("enter")
}

// pump delivers the core's queued events when a wait is armed.
func (h *harness) pump() {
	if !h.armed {
		return
	}
	sub := h.m.sub.(*fakeSub)
	if ev := sub.take(); len(ev) > 0 {
		h.armed = false
		h.send(eventsMsg{events: ev})
	}
}

// fire delivers the held ticks whose message is like msg.
func (h *harness) fire(like tea.Msg) int {
	var keep []tickedMsg
	var due []tickedMsg
	for _, tk := range h.ticks {
		if sameType(tk.msg, like) {
			due = append(due, tk)
		} else {
			keep = append(keep, tk)
		}
	}
	h.ticks = keep
	for _, tk := range due {
		h.send(tk.msg)
	}
	return len(due)
}

func (h *harness) pending(like tea.Msg) int {
	n := 0
	for _, tk := range h.ticks {
		if sameType(tk.msg, like) {
			n++
		}
	}
	return n
}

func sameType(a, b tea.Msg) bool {
	switch a.(type) {
	case frameMsg:
		_, ok := b.(frameMsg)
		return ok
	case clockMsg:
		_, ok := b.(clockMsg)
		return ok
	}
	return false
}

// screen returns the view as text: escapes stripped, lines right-trimmed.
func (h *harness) screen() string { return plainScreen(h.m.View().Content) }

func plainScreen(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// checkGolden compares got with testdata/name, or rewrites it with
// -update (testkit.Golden).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	testkit.Golden(t, filepath.Join("testdata", name), got)
}

// fixtureCore returns a fake core holding the first n of eight fixed jobs
// (n ≤ 8; more repeat the last kinds), at the fixed clock: colours,
// stderr, a flood whose ring dropped lines, a prompt, exits and signals.
func fixtureCore(n int) *fakeCore {
	c := newFakeCore(fixedNow)
	run := func(cmd, name string, at time.Duration) model.Snapshot {
		return model.Snapshot{Command: cmd, Name: name, State: model.StateRunning, Started: t0.Add(at), PID: 1000, TTY: true}
	}
	ended := func(s model.Snapshot, after time.Duration, e model.Exit) model.Snapshot {
		s.State, s.Ended, s.Exit, s.Done = model.StateExited, s.Started.Add(after), &e, true
		return s
	}
	for i := range n {
		switch i % 8 {
		case 0:
			id := c.add(run("npm run dev", "", 0), 14)
			c.emitN(id, model.StreamOut, 1238, func(seq uint64) []byte { return []byte("hmr update /src/App.tsx #" + itoa(seq)) })
			c.emit(id, model.StreamOut,
				"",
				"  \x1b[32m\x1b[1mVITE\x1b[22m v5.0.0\x1b[39m  ready in \x1b[1m312\x1b[22m ms",
				"",
				"  \x1b[32m➜\x1b[39m  \x1b[1mLocal\x1b[22m:   \x1b[36mhttp://localhost:\x1b[1m5173\x1b[22m/\x1b[39m",
				"  \x1b[2m➜  Network: use --host to expose\x1b[22m",
			)
			c.emit(id, model.StreamErr, "(!) \x1b[33mwarning:\x1b[39m duplicate key \"name\" in package.json")
			c.emit(id, model.StreamOut, "\x1b]0;evil title\x07page reload \x1b[2Jsrc/main.tsx", "\ttabbed\tline")
			c.emit(id, model.StreamErr, "Error: \x1b[31mECONNREFUSED\x1b[0m 127.0.0.1:5432")
			c.emit(id, model.StreamOut, "  ➜  press h + enter to show help")
		case 1:
			id := c.add(ended(run("make test", "", 10*time.Second), 14*time.Second, model.Exit{Code: 1}), 0)
			c.emit(id, model.StreamOut, "go test ./...", "ok  \tgithub.com/x/a\t0.012s", "--- FAIL: TestB (0.00s)", "    b_test.go:12: got 2, want 3", "FAIL\tgithub.com/x/b\t0.020s")
			c.emit(id, model.StreamErr, "make: *** [Makefile:4: test] Error 1")
		case 2:
			id := c.add(run("yes 'all work and no play' | nl", "flood", 20*time.Second), 4)
			c.emitN(id, model.StreamOut, 48213, func(seq uint64) []byte { return []byte(pad6(seq) + "  all work and no play") })
		case 3:
			id := c.add(run("python3 -i", "py", 30*time.Second), 0)
			c.emit(id, model.StreamOut, "Python 3.11.2 (main, Mar 13 2023) [GCC 12.2.0] on linux", `Type "help", "copyright", "credits" or "license" for more information.`)
			c.setPartial(id, model.StreamOut, ">>> ")
		case 4:
			id := c.add(ended(run("tail -f /var/log/app.log", "", 5*time.Second), 50*time.Second, model.Exit{Signal: 15}), 0)
			c.emit(id, model.StreamOut, "12:00:01 GET /health 200", "12:00:31 GET /health 200")
		case 5:
			s := ended(run("sh -c 'sleep 1000 & echo spawned'", "", 40*time.Second), 1*time.Second, model.Exit{})
			s.Remaining, s.Done = 1, false
			id := c.add(s, 0)
			c.emit(id, model.StreamOut, "spawned")
		case 6:
			id := c.add(ended(run("go build ./...", "", 15*time.Second), 9*time.Second, model.Exit{}), 0)
			_ = id
		case 7:
			id := c.add(run("cargo watch -x check", "watch", 45*time.Second), 0)
			c.emit(id, model.StreamErr, "[Running 'cargo check']", "    \x1b[1m\x1b[32mChecking\x1b[0m demo v0.1.0", "\x1b[1m\x1b[33mwarning\x1b[0m: unused variable: `x`", "    \x1b[1m\x1b[32mFinished\x1b[0m dev [unoptimized] target(s) in 0.41s")
		}
	}
	return c
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

func pad6(n uint64) string {
	s := itoa(n)
	return strings.Repeat(" ", max(6-len(s), 0)) + s
}

func teaSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }
