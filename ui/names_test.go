package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// TestBackgroundName covers /background --name NAME, -n NAME and
// --name=NAME, their mistakes (inline, the text kept), and a name that a
// running job has (the core's refusal, inline, with what to do).
func TestBackgroundName(t *testing.T) {
	t.Parallel()
	c := fixtureCore(3) // job 2 is "flood", running
	h := newHarness(t, c, 120, 40, Options{})
	for _, line := range []string{"background --name web npm run dev", "background -n api  go run ./api", "background --name=docs mkdocs serve"} {
		h.command(line)
		if h.m.palette != nil {
			t.Fatalf("%s: the palette stayed open: %q", line, h.footer(2))
		}
	}
	if want := []string{"web", "api", "docs"}; !slices.Equal(c.names, want) {
		t.Errorf("names %q, want %q", c.names, want)
	}
	if want := []string{"npm run dev", "go run ./api", "mkdocs serve"}; !slices.Equal(c.started, want) {
		t.Errorf("commands %q, want %q", c.started, want)
	}
	if s := h.screen(); !strings.Contains(s, "job 5 (docs) running") {
		t.Errorf("the named job's header:\n%s", s)
	}
	for _, cs := range []struct{ line, want string }{
		{"/background --name", "--name needs a name"},
		{"/background -n web", "background --name web needs a shell command after the name"},
		{"/background --name= ls", "--name= needs a name"},
		{"/background --name FLOOD yes", `the name "FLOOD" belongs to running job 2 (flood): pick another name, or stop that job first`},
	} {
		h.command(strings.TrimPrefix(cs.line, "/"))
		if h.m.palette == nil || h.m.palette.value() != cs.line {
			t.Fatalf("%s: the palette should stay open with the text", cs.line)
		}
		if f := h.footer(2); !strings.Contains(f, cs.want) {
			t.Errorf("%s: want %q inline:\n%s", cs.line, cs.want, f)
		}
		h.press("esc")
	}
	h.press("/")
	h.typeText("background")
	if f := h.footer(2); !strings.Contains(f, "/background [--name NAME] <command>") {
		t.Errorf("the usage hint should show --name:\n%s", f)
	}
}

// TestLaunchNames: launch jobs keep their names; when a name among them
// belongs to a running job (the Procfile runs in this session already),
// none of them starts and the status line says which job has it.
func TestLaunchNames(t *testing.T) {
	t.Parallel()
	c := newFakeCore(fixedNow)
	launch := []model.Spec{{Command: "npm run dev", Name: "web"}, {Command: "go run ./worker", Name: "worker"}, {Command: "make watch"}}
	h := newHarness(t, c, 120, 40, Options{Launch: launch})
	if !slices.Equal(c.names, []string{"web", "worker", ""}) || !slices.Equal(c.owners, []string{DefaultOwner, DefaultOwner, DefaultOwner}) {
		t.Fatalf("launch: names %q owners %q", c.names, c.owners)
	}
	if s := h.screen(); !strings.Contains(s, "0 (web)") || !strings.Contains(s, "1 (worker)") {
		t.Errorf("the list should show the names:\n%s", s)
	}

	again := newHarness(t, c, 120, 40, Options{Launch: launch})
	if len(c.started) != 3 {
		t.Errorf("a second launch started %q; want nothing more", c.started[3:])
	}
	if f := again.status(); !strings.Contains(f, "nothing was started: the launch's names belong to running job 0 (web), job 1 (worker)") {
		t.Errorf("the second launch should say why nothing started:\n%s", f)
	}
}

// status is the status line as it reads: its rows (a long message wraps
// onto more) joined by spaces, without the help row under them.
func (h *harness) status() string {
	l := h.m.layout()
	lines := strings.Split(strings.TrimRight(h.screen(), "\n"), "\n")
	rows := lines[l.footer.y : l.footer.y+l.footer.h-1]
	for i, r := range rows {
		rows[i] = strings.TrimSpace(r)
	}
	return strings.Join(rows, " ")
}

// TestPaletteLineEditing: the palette's line edits like readline: Ctrl+W
// deletes the word before the cursor, Ctrl+A and Ctrl+E go to the start
// and the end, Ctrl+U deletes everything before the cursor; an empty line
// stays open, Enter on it says what to type, and only Esc closes it.
func TestPaletteLineEditing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, fixtureCore(1), 80, 24, Options{})
	ctrl := func(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }
	h.press("/")
	h.typeText("background npm run dev")
	h.send(ctrl('w'))
	if got := h.m.palette.value(); got != "/background npm run " {
		t.Fatalf("Ctrl+W: %q", got)
	}
	h.send(ctrl('a'))
	h.typeText("x")
	h.send(ctrl('e'))
	h.typeText("y")
	if got := h.m.palette.value(); got != "x/background npm run y" {
		t.Fatalf("Ctrl+A, x, Ctrl+E, y: %q", got)
	}
	h.send(ctrl('u'))
	if h.m.palette == nil || h.m.palette.value() != "" {
		t.Fatalf("Ctrl+U should clear the line and keep the palette open: %v", h.m.palette)
	}
	h.press("backspace")
	h.press("enter")
	if h.m.palette == nil || !strings.Contains(h.footer(2), "type a command") {
		t.Fatalf("Enter on an empty line should say what to type:\n%s", h.footer(2))
	}
	h.send(ctrl('c')) // Ctrl+C edits nothing and does not close it either
	if h.m.palette == nil || h.quit {
		t.Fatal("Ctrl+C in the palette should neither close it nor quit")
	}
	h.press("esc")
	if h.m.palette != nil {
		t.Fatal("Esc should close the palette")
	}
}

// TestPaletteNameChecked: the palette checks --name and -n against the
// model's name rule as soon as the name is typed (a space after it), in
// the model's words, and refuses the line before anything starts (it used
// to go to the core and come back refused).
func TestPaletteNameChecked(t *testing.T) {
	t.Parallel()
	c := fixtureCore(0)
	h := newHarness(t, c, 120, 40, Options{})
	_, want := model.CheckName("42")
	h.press("/")
	h.typeText("background --name 42")
	if h.m.palette.err != "" {
		t.Fatalf("the name is not complete yet: %q", h.m.palette.err)
	}
	h.typeText(" ")
	if h.m.palette.err != want.Error() {
		t.Fatalf("a numeric name should be said at once in the model's words: %q, want %q", h.m.palette.err, want.Error())
	}
	h.typeText("sleep 1")
	h.press("enter")
	if len(c.started) != 0 || h.m.palette == nil || h.m.palette.err != want.Error() {
		t.Fatalf("a bad name should be refused before the start: started %q, palette %+v", c.started, h.m.palette)
	}
	h.press("esc", "/")
	h.typeText("background -n=web sleep 1")
	if h.m.palette.err != "" {
		t.Fatalf("a good name: %q", h.m.palette.err)
	}
	h.press("enter")
	if len(c.names) != 1 || c.names[0] != "web" {
		t.Fatalf("a good name should start: %q", c.names)
	}
}

// TestPaletteQuotedName: a quoted name is refused, not split into a name
// "'two" and a command "words' sleep 5".
func TestPaletteQuotedName(t *testing.T) {
	t.Parallel()
	c := fixtureCore(0)
	h := newHarness(t, c, 120, 40, Options{})
	h.command("background -n 'two words' sleep 5")
	if len(c.started) != 0 || h.m.palette == nil || !strings.Contains(h.m.palette.err, "quotes do not group words") {
		t.Fatalf("a quoted name: started %q, palette %+v", c.started, h.m.palette)
	}
}
