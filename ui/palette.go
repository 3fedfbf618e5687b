package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// paletteAction is what the palette asks its owner to do after a key.
type paletteAction uint8

const (
	paletteNone   paletteAction = iota
	paletteClose                // Esc
	paletteSubmit               // Enter: run the line (palette.value)
)

// palette is the command palette: a one-line input with history, Tab
// completion and an inline error or hint line under it. It is a plain
// type: the root model feeds it keys and acts on the action it returns.
type palette struct {
	input   textinput.Model
	history []string // oldest first
	histPos int      // len(history) while editing the draft
	draft   string
	err     string        // inline error; the text is kept
	search  *searchTarget // a search prompt (search.go), not a command line
	busy    string        // shown while a submitted command runs
	cands   []string
	listed  string // the line whose candidates a Tab listed (complete)
	cycle   struct {
		prefix string
		cands  []string
		i      int
		value  string // the line after the last Tab
	}
}

// PaletteMaxChars is the longest line the palette takes, in characters.
const PaletteMaxChars = 16 << 10

// tooLong is the palette's error for a line over PaletteMaxChars.
var tooLong = fmt.Sprintf("the line is over %d characters, the palette's limit: run longer commands from a script file", PaletteMaxChars)

// newPalette opens a palette with first (the key that opened it) typed.
func newPalette(first string, history []string, st Styles) *palette {
	in := textinput.New()
	in.Prompt = ""
	in.ShowSuggestions = false
	in.KeyMap.AcceptSuggestion.Unbind()
	in.KeyMap.NextSuggestion.Unbind()
	in.KeyMap.PrevSuggestion.Unbind()
	ts := textinput.DefaultStyles(true)
	ts.Focused.Text = st.PaletteText
	ts.Focused.Prompt = st.PaletteText
	ts.Cursor.Blink = true
	in.SetStyles(ts)
	// A real (terminal-drawn) cursor blinks without ticks, so an open
	// palette costs no redraws.
	in.SetVirtualCursor(false)
	// Every key edits the line in place, so a very long line typed (or
	// pasted without bracketed paste) key by key costs time quadratic in
	// its length; longer commands belong in a script file.
	in.CharLimit = PaletteMaxChars + 1 // one more, to tell "too long" from "at the limit"
	in.Focus()
	in.SetValue(first)
	in.CursorEnd()
	return &palette{input: in, history: history, histPos: len(history)}
}

// setWidth sets the width of the palette's rows in cells.
func (p *palette) setWidth(w int) { p.input.SetWidth(max(w-1, 1)) }

// value returns the typed line.
func (p *palette) value() string { return p.input.Value() }

// setValue replaces the line and puts the cursor at its end.
func (p *palette) setValue(s string) {
	p.input.SetValue(s)
	p.input.CursorEnd()
}

// Update feeds the palette one message (keys and pastes) and says what its
// owner should do. jobs feed job completion.
func (p *palette) Update(msg tea.Msg, keys KeyMap, jobs []model.Snapshot) (paletteAction, tea.Cmd) {
	km, isKey := msg.(tea.KeyPressMsg)
	if isKey {
		switch {
		case key.Matches(km, keys.Close):
			return paletteClose, nil
		case key.Matches(km, keys.Submit):
			if p.busy != "" {
				return paletteNone, nil
			}
			return paletteSubmit, nil
		case key.Matches(km, keys.Complete):
			if p.search == nil {
				p.complete(jobs)
			}
			return paletteNone, nil
		case key.Matches(km, keys.HistoryPrev):
			p.walk(-1)
			return paletteNone, nil
		case key.Matches(km, keys.HistoryNext):
			p.walk(+1)
			return paletteNone, nil
		}
	}
	if p.busy != "" {
		return paletteNone, nil
	}
	if pm, ok := msg.(tea.PasteMsg); ok {
		// A line of its own is what the palette runs: a pasted script
		// would have its lines joined into one (and mean something else).
		// Terminals send a paste's line breaks as \r (tmux, xterm, VTE),
		// \n or \r\n: each is a line break.
		if n := pastedLines(pm.Content); n > 1 {
			p.err = fmt.Sprintf("the pasted text has %d lines; the palette runs one: join them with ; or run them from a script file", n)
			return paletteNone, nil
		}
		if utf8.RuneCountInString(p.value())+utf8.RuneCountInString(pm.Content) > PaletteMaxChars {
			p.err = tooLong
			return paletteNone, nil
		}
	}
	before := p.input.Value()
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	if p.input.Value() != before {
		// The line edits like readline (Ctrl+U, Ctrl+W, Ctrl+A/E …); an
		// empty line stays open: only Esc closes the palette.
		p.err = ""
		p.cands, p.listed = nil, ""
		if utf8.RuneCountInString(p.input.Value()) > PaletteMaxChars {
			p.err = tooLong
		} else if p.search == nil {
			p.err = nameProblem(p.input.Value()) // at once, not at the start
		}
	}
	return paletteNone, cmd
}

// walk moves through the history: -1 to older lines, +1 to newer ones and
// back to the draft.
func (p *palette) walk(d int) {
	n := p.histPos + d
	if n < 0 || n > len(p.history) {
		return
	}
	if p.histPos == len(p.history) {
		p.draft = p.value()
	}
	p.histPos = n
	if n == len(p.history) {
		p.setValue(p.draft)
	} else {
		p.setValue(p.history[n])
	}
	p.err, p.cands = "", nil
}

// complete completes the line: a single candidate is taken whole (a
// command name with a space after it); several extend the line to their
// common prefix, or, when it is typed already, are listed under it (the
// line unchanged: "job-" does not become the first of them); further Tabs
// cycle through them.
func (p *palette) complete(jobs []model.Snapshot) {
	line := p.value()
	if p.cycle.cands != nil && line == p.cycle.value {
		p.cycle.i = (p.cycle.i + 1) % len(p.cycle.cands)
		p.cycle.value = p.cycle.prefix + p.cycle.cands[p.cycle.i]
		p.setValue(p.cycle.value)
		return
	}
	p.cycle.cands = nil
	prefix, cands, isCommand := completions(line, jobs)
	p.cands = cands
	switch len(cands) {
	case 0:
		return
	case 1:
		v := prefix + cands[0]
		if isCommand {
			v += " "
		}
		p.setValue(v)
		p.cands = nil
		return
	}
	if lcp := commonPrefix(cands); len(prefix+lcp) > len(line) {
		p.setValue(prefix + lcp)
		p.listed = p.value()
		return
	}
	if p.listed != line {
		p.listed = line // listed by this Tab; the next one cycles
		return
	}
	p.cycle.prefix, p.cycle.cands, p.cycle.i = prefix, cands, 0
	p.cycle.value = prefix + cands[0]
	p.setValue(p.cycle.value)
}

// hint returns the line under the input when there is no error: the
// candidates of the last Tab, the usage of the command being typed, or the
// list of commands.
func (p *palette) hint() string {
	if p.busy != "" {
		return p.busy
	}
	if p.search != nil {
		return "a regular expression (Go RE2: ready|listening on, error [0-9]+) · Enter searches · ↑/↓ earlier searches · Esc closes"
	}
	if len(p.cands) > 1 {
		return strings.Join(p.cands, "  ")
	}
	body := strings.TrimLeft(p.value(), "/:")
	name, _, _ := strings.Cut(body, " ")
	if c, ok := lookupCommand(name); ok {
		return c.usage + " · " + c.help
	}
	return "background <command> · job-kill, job-restart, job-status <id|name> (kill, restart, status) · clear · help · quit · Tab completes · Esc closes"
}

// note returns the rows under the input, w cells wide: the error,
// wrapped onto at most maxRows rows rather than cut, or the hint (one row,
// cut).
func (p *palette) note(w, maxRows int) []string {
	if p.err != "" {
		return wrapText(p.err, w, w, maxRows)
	}
	return []string{p.hint()}
}

// view draws the palette's rows in w cells: the input, then the error or
// a hint (note).
func (p *palette) view(st Styles, w, maxRows int) []string {
	out := []string{fit(p.input.View(), w)}
	style := st.Dim
	if p.err != "" {
		style = st.PaletteErr
	}
	for _, r := range p.note(w, maxRows) {
		out = append(out, style.Render(fit(r, w)))
	}
	return out
}

// cursor returns where the terminal cursor goes, relative to the palette's
// first row.
func (p *palette) cursor() *tea.Cursor { return p.input.Cursor() }

// pastedLines counts the lines of pasted text: \r\n, \n and a lone \r
// each end one (terminals send a paste's line breaks as \r); a last line
// break ends the text and starts no line.
func pastedLines(s string) int {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Count(strings.TrimRight(s, "\n"), "\n") + 1
}
