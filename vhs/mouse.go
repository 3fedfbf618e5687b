package vhs

import (
	"fmt"
	"regexp"
	"strconv"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/vhs/parser"
	"github.com/charmbracelet/vhs/token"
)

// Mouse events. VHS's tape language has no mouse command, so a tape sends
// a mouse event as the bytes a terminal sends for it, in two valid VHS
// steps: Escape, then a Type of the rest of an SGR mouse report:
//
//	Escape
//	Type@0ms "[<65;40;12M"   # wheel down at column 40, row 12 (1-based)
//
// The report is "[<B;X;Y" then M (press, wheel, motion) or m (release),
// with B as xterm numbers it: 0, 1, 2 the left, middle and right button,
// 64 and 65 the wheel up and down (66, 67 sideways), plus 4 for Shift, 8
// for Alt, 16 for Ctrl and 32 for motion. The runner reads the pair as
// one event and hands it to the emulator, which encodes it for the mouse
// mode the program asked for, or drops it when the program asked for none
// (as a terminal does: with mouse reporting off, a click reaches no
// program). Real VHS types the same bytes, ESC first, with its key delays
// between them; whether a program reads them as one event there depends
// on how long it waits for the rest of an escape sequence.

// mouseReport matches the Type text of a mouse step.
var mouseReport = regexp.MustCompile(`^\[<(\d{1,3});(\d{1,4});(\d{1,4})([Mm])$`)

// mouseStep reports whether steps[i] and steps[i+1] are a mouse event
// (Escape once, then a Type of a mouse report), and returns it for a
// cols×rows screen. A Type that starts like a report after an Escape but
// is not a valid one is an error (ErrBadValue), so a typo never turns
// into an Escape and some text.
func mouseStep(steps []parser.Command, i, cols, rows int) (uv.MouseEvent, bool, error) {
	if i+1 >= len(steps) || steps[i].Type != token.ESCAPE || steps[i].Args != "1" || steps[i+1].Type != token.TYPE {
		return nil, false, nil
	}
	text := steps[i+1].Args
	if len(text) < 2 || text[:2] != "[<" {
		return nil, false, nil
	}
	ev, err := parseMouse(text, cols, rows)
	if err != nil {
		return nil, false, err
	}
	return ev, true, nil
}

// parseMouse reads an SGR mouse report (without its ESC) for a cols×rows
// screen.
func parseMouse(text string, cols, rows int) (uv.MouseEvent, error) {
	m := mouseReport.FindStringSubmatch(text)
	if m == nil {
		return nil, fmt.Errorf("%w: %q after Escape is not a mouse report: want [<B;X;YM, e.g. \"[<65;40;12M\" for the wheel down at column 40, row 12", ErrBadValue, text)
	}
	b, _ := strconv.Atoi(m[1])
	x, _ := strconv.Atoi(m[2])
	y, _ := strconv.Atoi(m[3])
	if x < 1 || y < 1 || x > cols || y > rows {
		return nil, fmt.Errorf("%w: mouse report %q: cell %d,%d is outside the %d×%d screen (X and Y count from 1)", ErrBadValue, text, x, y, cols, rows)
	}
	var mod uv.KeyMod
	if b&4 != 0 {
		mod |= uv.ModShift
	}
	if b&8 != 0 {
		mod |= uv.ModAlt
	}
	if b&16 != 0 {
		mod |= uv.ModCtrl
	}
	motion := b&32 != 0
	var button uv.MouseButton
	switch base := b &^ (4 | 8 | 16 | 32); base {
	case 0:
		button = uv.MouseLeft
	case 1:
		button = uv.MouseMiddle
	case 2:
		button = uv.MouseRight
	case 3:
		button = uv.MouseNone
	case 64, 65, 66, 67:
		button = []uv.MouseButton{uv.MouseWheelUp, uv.MouseWheelDown, uv.MouseWheelLeft, uv.MouseWheelRight}[base-64]
	case 128, 129:
		button = []uv.MouseButton{uv.MouseBackward, uv.MouseForward}[base-128]
	default:
		return nil, fmt.Errorf("%w: mouse report %q: button %d is none xterm sends (0-3, 64-67, 128-129, plus 4, 8, 16, 32)", ErrBadValue, text, base)
	}
	ev := uv.Mouse{X: x - 1, Y: y - 1, Button: button, Mod: mod}
	switch {
	case motion:
		return uv.MouseMotionEvent(ev), nil
	case b&^(4|8|16|32) >= 64 && b&^(4|8|16|32) < 128:
		return uv.MouseWheelEvent(ev), nil
	case m[4] == "m":
		return uv.MouseReleaseEvent(ev), nil
	}
	return uv.MouseClickEvent(ev), nil
}
