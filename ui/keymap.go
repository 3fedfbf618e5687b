package ui

import "charm.land/bubbles/v2/key"

// KeyMap holds every key binding of the console; DefaultKeyMap builds the
// one it ships with. A binding with no keys does nothing. ShortHelp and FullHelp feed the
// footer (bubbles/help).
type KeyMap struct {
	// Up and Down move the selection in the job list (and the focus to the
	// selected job's pane).
	Up, Down key.Binding
	// NextPane and PrevPane move the focus between panes.
	NextPane, PrevPane key.Binding
	// Pane focuses a pane by number: its keys must be "1" … "8", in order.
	Pane key.Binding
	// PageUp, PageDown, Top and Bottom scroll the focused pane. Scrolling
	// up pauses following; Bottom resumes it.
	PageUp, PageDown, Top, Bottom key.Binding
	// Zoom shows the focused pane over the whole area, and back.
	Zoom key.Binding
	// Wrap toggles wrapping of long lines in the focused pane (and in an
	// overlay): each line shown whole over as many rows as it needs.
	Wrap key.Binding
	// Mouse turns the mouse off (the terminal's own selection and wheel
	// work again) and back on (the wheel scrolls panes, a click focuses;
	// the default). Its help words what it does now.
	Mouse key.Binding
	// Search asks for a regular expression and searches the focused job's
	// ring (or the open overlay) for it; SearchNext and SearchPrev go to
	// the next older and newer match while a search is active, and Close
	// ends it.
	Search, SearchNext, SearchPrev key.Binding
	// Kill asks to stop the selected job and everything it started.
	Kill key.Binding
	// Restart restarts the selected job: stops its tree (asking first
	// while it runs) and starts its command again as a new run, shown in
	// the same pane.
	Restart key.Binding
	// Remove takes the selected finished job out of the list.
	Remove key.Binding
	// Palette opens the command palette with the pressed key typed.
	Palette key.Binding
	// Help toggles the full help in the footer.
	Help key.Binding
	// Quit quits, asking first when jobs are running.
	Quit key.Binding

	// Yes and No answer a confirm dialog (any key other than Yes is no).
	Yes, No key.Binding
	// Submit runs the palette's command; Close closes the palette or an
	// overlay; Complete completes a command name or job selector;
	// HistoryPrev and HistoryNext walk the palette's history.
	Submit, Close, Complete, HistoryPrev, HistoryNext key.Binding
}

// DefaultKeyMap returns the console's key bindings: ↑/↓ or k/j select a
// job, Tab/Shift+Tab or 1–8 focus a pane, PgUp/PgDn/Home/End scroll it, z
// zooms it, w wraps its long lines, m turns the mouse off and on, Ctrl+F
// searches the focused job's output (n and N go to older and newer
// matches), x kills the selected job (after asking), r restarts it (asking
// while it runs), d removes it from the list once finished, / or : opens
// the command palette, ? toggles the full help, q or ctrl+c quits (asking
// first when jobs run); y/n answer a question, enter runs the palette's
// command, esc closes it or an overlay, tab completes, ↑/↓ walk its
// history.
func DefaultKeyMap() KeyMap {
	return KeyMap{
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

// ShortHelp returns the bindings of the one-line footer help.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.NextPane, k.Zoom, k.Kill, k.Palette, k.Help, k.Quit}
}

// FullHelp returns the bindings of the full help, in columns.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.NextPane, k.PrevPane, k.Pane, k.Mouse},
		{k.PageUp, k.PageDown, k.Top, k.Bottom, k.Zoom, k.Wrap, k.Search, k.SearchNext},
		{k.Kill, k.Restart, k.Remove, k.Palette, k.Help, k.Quit},
	}
}

// paneNumber returns the 0-based pane index of a key of the Pane binding.
func (k KeyMap) paneNumber(s string) (int, bool) {
	for i, ks := range k.Pane.Keys() {
		if ks == s {
			return i, true
		}
	}
	return 0, false
}
