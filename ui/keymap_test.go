package ui

import (
	"reflect"
	"testing"

	"charm.land/bubbles/v2/key"
)

// TestDefaultKeyMap checks the bindings the console ships with: every one
// has keys and help text, and no key does two things on the main screen
// (the dialog bindings — y/n, enter, esc, tab completion, history — only
// apply inside their dialogs).
func TestDefaultKeyMap(t *testing.T) {
	km := reflect.ValueOf(DefaultKeyMap())
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
			t.Errorf("key %q (documented in docs/console.md) is not bound", k)
		}
	}
}
