package main

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// TestDefaultKeyMap checks the bindings the console ships with: every one
// has keys and help text, and no key does two things on the main screen
// (the dialog bindings — y/n, enter, esc, tab completion, history — only
// apply inside their dialogs).
func TestDefaultKeyMap(t *testing.T) {
	km := reflect.ValueOf(defaultKeyMap())
	dialog := map[string]bool{"Yes": true, "No": true, "Submit": true, "Close": true, "Complete": true, "HistoryPrev": true, "HistoryNext": true}
	owner := map[string]string{}
	for i := range km.NumField() {
		name := km.Type().Field(i).Name
		b, ok := km.Field(i).Interface().(key.Binding)
		if !ok {
			continue
		}
		if len(b.Keys()) == 0 || b.Help().Key == "" || b.Help().Desc == "" {
			t.Errorf("%s: keys %v, help %+v: every binding needs keys and help", name, b.Keys(), b.Help())
		}
		if dialog[name] {
			continue
		}
		for _, k := range b.Keys() {
			if other, dup := owner[k]; dup {
				t.Errorf("key %q is bound to both %s and %s", k, other, name)
			}
			owner[k] = name
		}
	}
	for _, k := range []string{"up", "k", "down", "j", "tab", "shift+tab", "1", "8", "pgup", "pgdown", "home", "end", "z", "w", "m", "ctrl+f", "n", "N", "x", "r", "d", "/", ":", "?", "q", "ctrl+c"} {
		if owner[k] == "" {
			t.Errorf("key %q (documented in the README) is not bound", k)
		}
	}
}

// TestDefaultKeyMapMatchesGoldens: the UI's tests use a copy of these
// bindings (package ui cannot import main); the footer its goldens show
// must be the one these bindings give, so the copy cannot drift unseen.
func TestDefaultKeyMapMatchesGoldens(t *testing.T) {
	golden, err := os.ReadFile("ui/testdata/view_80x24_3jobs.golden")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(golden), "\n"), "\n")
	footer := strings.TrimRight(lines[len(lines)-1], " ")
	got := ansi.Strip(help.New().View(defaultKeyMap()))
	if got != footer {
		t.Errorf("short help of defaultKeyMap:\n  %q\nthe goldens' footer:\n  %q\n(update ui/harness_test.go's testKeys to match keymap.go)", got, footer)
	}
}
