package vhs

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// applySet checks one Set value the way VHS's ExecuteSet* functions parse it
// and records the ones the runner uses.
func (tp *Tape) applySet(opt, arg string) error {
	if ok, err := tp.applyNumber(opt, arg); ok {
		return err
	}
	switch opt {
	case "LoopOffset":
		if _, err := strconv.ParseFloat(strings.TrimSuffix(arg, "%"), 64); err != nil {
			return fmt.Errorf("%w: Set LoopOffset wants a percentage, got %q", ErrBadValue, arg)
		}
	case "WindowBar":
		tp.Settings.WindowBar = arg
	case "TypingSpeed":
		d, err := time.ParseDuration(arg)
		if err != nil || d < 0 {
			return fmt.Errorf("%w: Set TypingSpeed wants a duration like 50ms, got %q", ErrBadValue, arg)
		}
		tp.TypingSpeed = d
	case "WaitTimeout":
		d, err := time.ParseDuration(arg)
		if err != nil || d <= 0 {
			return fmt.Errorf("%w: Set WaitTimeout wants a positive duration like 5s, got %q", ErrBadValue, arg)
		}
		tp.WaitTimeout = d
	case "WaitPattern":
		rx, err := regexp.Compile(arg)
		if err != nil {
			return fmt.Errorf("%w: Set WaitPattern: %v", ErrBadValue, err)
		}
		tp.WaitPattern = rx
	case "Shell":
		if arg != "bash" {
			return fmt.Errorf("%w: Set Shell %q: the runner replays bash only; use Set Shell \"bash\" or leave it out", ErrUnsupported, arg)
		}
	case "CursorBlink":
		if _, err := strconv.ParseBool(arg); err != nil {
			return fmt.Errorf("%w: Set CursorBlink wants true or false, got %q", ErrBadValue, arg)
		}
	case "Theme":
		// Theme names live in VHS's main package, which cannot be imported;
		// a JSON theme can at least be checked.
		if strings.HasPrefix(strings.TrimSpace(arg), "{") {
			var v map[string]any
			if err := json.Unmarshal([]byte(arg), &v); err != nil {
				return fmt.Errorf("%w: Set Theme: invalid JSON: %v", ErrBadValue, err)
			}
		}
	case "FontFamily", "MarginFill":
		// Cosmetic; the cell rule assumes DejaVu Sans Mono whatever is named.
	default:
		return fmt.Errorf("%w: unknown setting %q", ErrUnsupported, opt)
	}
	return nil
}

// applyNumber is applySet for the numeric settings; ok is false when opt
// is not one.
func (tp *Tape) applyNumber(opt, arg string) (ok bool, err error) {
	s := &tp.Settings
	posInt := func(dst *int, min int) (bool, error) {
		n, err := strconv.Atoi(arg)
		if err != nil || n < min {
			return true, fmt.Errorf("%w: Set %s wants an integer ≥ %d, got %q", ErrBadValue, opt, min, arg)
		}
		*dst = n
		return true, nil
	}
	posFloat := func(dst *float64, positive bool) (bool, error) {
		f, err := strconv.ParseFloat(arg, 64)
		if err != nil || (positive && f <= 0) {
			return true, fmt.Errorf("%w: Set %s wants a number, got %q", ErrBadValue, opt, arg)
		}
		*dst = f
		return true, nil
	}
	var scratch int
	var fscratch float64
	switch opt {
	case "Width":
		return posInt(&s.Width, 1)
	case "Height":
		return posInt(&s.Height, 1)
	case "FontSize":
		return posInt(&s.FontSize, 1)
	case "Padding":
		return posInt(&s.Padding, 0)
	case "Margin":
		return posInt(&s.Margin, 0)
	case "WindowBarSize":
		return posInt(&s.WindowBarSize, 0)
	case "BorderRadius":
		return posInt(&scratch, 0)
	case "Framerate":
		return posInt(&scratch, 1)
	case "LetterSpacing":
		return posFloat(&s.LetterSpacing, false)
	case "LineHeight":
		return posFloat(&s.LineHeight, true)
	case "PlaybackSpeed":
		return posFloat(&fscratch, true)
	}
	return false, nil
}
