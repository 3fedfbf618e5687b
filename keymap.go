package main

import "github.com/jobdeck/jobdeck/ui"

// defaultKeyMap returns the console's key bindings: ui.DefaultKeyMap, with
// what jobdeck binds differently from the console's defaults (nothing
// yet). A change to a default binding goes to ui.DefaultKeyMap, where the
// UI's tests and goldens see it.
func defaultKeyMap() ui.KeyMap {
	return ui.DefaultKeyMap()
}
