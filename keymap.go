package main

import (
	"charm.land/bubbles/v2/key"

	"github.com/jobdeck/jobdeck/ui"
)

// defaultKeyMap returns the console's key bindings: ↑/↓ or k/j select a
// job, Tab/Shift+Tab or 1–8 focus a pane, PgUp/PgDn/Home/End scroll it, z
// zooms it, x kills the selected job (after asking), r restarts it
// (asking while it runs), d removes it from the list once finished, / or
// : opens the command palette, ? toggles the full help, q or ctrl+c quits
// (asking first when jobs run).
func defaultKeyMap() ui.KeyMap {
	return ui.KeyMap{
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		NextPane:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "focus")),
		PrevPane:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "focus back")),
		Pane:       key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8"), key.WithHelp("1–8", "focus pane N")),
		PageUp:     key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "scroll up, pause")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "scroll down")),
		Top:        key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "oldest line")),
		Bottom:     key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "follow")),
		Zoom:       key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "zoom")),
		Wrap:       key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "wrap lines")),
		Mouse:      key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "mouse off")),
		Search:     key.NewBinding(key.WithKeys("ctrl+f"), key.WithHelp("ctrl+f", "search")),
		SearchNext: key.NewBinding(key.WithKeys("n"), key.WithHelp("n/N", "older/newer match")),
		SearchPrev: key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "newer match")),
		Kill:       key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "kill")),
		Restart:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "restart")),
		Remove:     key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "remove finished job")),
		Palette:    key.NewBinding(key.WithKeys("/", ":"), key.WithHelp("/", "commands")),
		Help:       key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:       key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),

		Yes:         key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		No:          key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n", "no")),
		Submit:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Close:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
		Complete:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		HistoryPrev: key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "older command")),
		HistoryNext: key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "newer command")),
	}
}
