package vhs

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/vhs/parser"
	"github.com/charmbracelet/vhs/token"
	"github.com/charmbracelet/x/vt"
)

// namedKeys maps the tape's key commands (Enter, Up, PageDown, …) to the key
// codes x/vt encodes. The emulator picks the bytes, so modes such as DECCKM
// (application cursor keys: ESC O A instead of ESC [ A) are honoured.
//
// Home and End are missing on purpose: VHS v0.10.0's parser rejects both as
// "Invalid command", so no valid tape can contain them.
var namedKeys = map[parser.CommandType]rune{
	token.ENTER:     vt.KeyEnter,
	token.TAB:       vt.KeyTab,
	token.BACKSPACE: vt.KeyBackspace,
	token.DELETE:    vt.KeyDelete,
	token.INSERT:    vt.KeyInsert,
	token.ESCAPE:    vt.KeyEscape,
	token.SPACE:     vt.KeySpace,
	token.UP:        vt.KeyUp,
	token.DOWN:      vt.KeyDown,
	token.LEFT:      vt.KeyLeft,
	token.RIGHT:     vt.KeyRight,
	token.PAGE_UP:   vt.KeyPgUp,
	token.PAGE_DOWN: vt.KeyPgDown,
}

// ctrlSymbols are the non-letter keys that have a C0 control code with Ctrl
// held (ESC, FS, GS, RS, US), as x/vt encodes them; '@' is the same NUL as
// Ctrl+Space and '-' the same US as Ctrl+_ on an xterm-like keyboard.
var ctrlSymbols = map[string]rune{
	"[": '[', "\\": '\\', "]": ']', "^": '^', "_": '_',
	"@": vt.KeySpace, "-": '_', "Space": vt.KeySpace,
}

// chordKeys returns the key presses of one Ctrl+…, Alt+… or Shift+… command,
// in order, or an error wrapping ErrUnsupported when the chord has no
// encoding in a legacy (non-kitty) terminal, the only kind x/vt speaks.
//
// Supported: Ctrl+<letter>, Ctrl+[ \ ] ^ _ @ - Space, each optionally with
// Alt (Ctrl+Alt+x sends ESC then the control code); Alt+<text> (ESC before
// each character), Alt+Enter, Alt+Tab, Alt+[ and Alt+]; Shift+Tab (CSI Z) and
// Shift+<letter> (the upper-case letter). Ctrl+Shift+…, Ctrl+Enter,
// Ctrl+Backspace and Shift+Enter are rejected: a legacy terminal cannot tell
// them from the unmodified key, so a tape using them would test nothing.
func chordKeys(c parser.Command) ([]uv.KeyPressEvent, error) {
	switch c.Type {
	case token.CTRL:
		return ctrlChord(c.Args)
	case token.ALT:
		return altChord(c.Args)
	case token.SHIFT:
		return shiftChord(c.Args)
	}
	return nil, fmt.Errorf("%w: %s is not a key chord", ErrUnsupported, c.Type)
}

func ctrlChord(args string) ([]uv.KeyPressEvent, error) {
	fields := strings.Fields(args)
	var mod uv.KeyMod = vt.ModCtrl
	var keys []string
	for _, f := range fields {
		switch f {
		case "Alt":
			mod |= vt.ModAlt
		case "Shift":
			return nil, fmt.Errorf("%w: Ctrl+Shift+… sends the same bytes as Ctrl+… in a legacy terminal; drop Shift", ErrUnsupported)
		default:
			keys = append(keys, f)
		}
	}
	if len(keys) != 1 {
		return nil, fmt.Errorf("%w: Ctrl+%s: press exactly one key with Ctrl (e.g. Ctrl+C)", ErrUnsupported, strings.ReplaceAll(args, " ", "+"))
	}
	k := keys[0]
	if code, ok := ctrlSymbols[k]; ok {
		return []uv.KeyPressEvent{{Code: code, Mod: mod}}, nil
	}
	r, size := utf8.DecodeRuneInString(k)
	if size == len(k) && r < utf8.RuneSelf && unicode.IsLetter(r) {
		return []uv.KeyPressEvent{{Code: unicode.ToLower(r), Mod: mod}}, nil
	}
	return nil, fmt.Errorf("%w: Ctrl+%s has no control code; use a letter, [ \\ ] ^ _ @ - or Space", ErrUnsupported, k)
}

func altChord(args string) ([]uv.KeyPressEvent, error) {
	switch args {
	case "":
		return nil, fmt.Errorf("%w: Alt needs a key, e.g. Alt+b", ErrUnsupported)
	case "Enter":
		return []uv.KeyPressEvent{{Code: vt.KeyEnter, Mod: vt.ModAlt}}, nil
	case "Tab":
		return []uv.KeyPressEvent{{Code: vt.KeyTab, Mod: vt.ModAlt}}, nil
	}
	// VHS types every character of Alt+abc with Alt held.
	var out []uv.KeyPressEvent
	for _, r := range args {
		out = append(out, uv.KeyPressEvent{Code: r, Text: string(r), Mod: vt.ModAlt})
	}
	return out, nil
}

func shiftChord(args string) ([]uv.KeyPressEvent, error) {
	if args == "Tab" {
		return []uv.KeyPressEvent{{Code: vt.KeyTab, Mod: vt.ModShift}}, nil
	}
	r, size := utf8.DecodeRuneInString(args)
	if args != "" && size == len(args) && r < utf8.RuneSelf && unicode.IsLetter(r) {
		u := unicode.ToUpper(r)
		return []uv.KeyPressEvent{{Code: unicode.ToLower(r), Text: string(u)}}, nil
	}
	return nil, fmt.Errorf("%w: Shift+%s: only Shift+Tab and Shift+<letter> have a distinct encoding; type the shifted character instead", ErrUnsupported, args)
}

// namedKey returns the key press of a repeatable key command (Enter, Up, …).
func namedKey(t parser.CommandType) (uv.KeyPressEvent, bool) {
	code, ok := namedKeys[t]
	return uv.KeyPressEvent{Code: code}, ok
}
