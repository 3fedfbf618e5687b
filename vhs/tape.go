package vhs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/vhs/lexer"
	"github.com/charmbracelet/vhs/parser"
	"github.com/charmbracelet/vhs/token"
)

// Errors of parsing and replaying tapes. Each is wrapped with the tape, the
// step and what to do next.
var (
	// ErrSyntax means VHS's own parser rejected the tape.
	ErrSyntax = errors.New("tape does not parse with VHS v0.10.0")
	// ErrUnsupported means the tape is valid VHS but uses something this
	// runner cannot replay faithfully (another shell, an unencodable chord…).
	ErrUnsupported = errors.New("not supported by the tape runner")
	// ErrBadValue means a Set, Env or key count has a value VHS would reject
	// when it runs the tape (its parser lets these through).
	ErrBadValue = errors.New("bad value")
	// ErrWaitTimeout means a Wait step's pattern did not match in time.
	ErrWaitTimeout = errors.New("wait timed out")
	// ErrRequire means a Require'd program is not on the shell's PATH.
	ErrRequire = errors.New("required program not found")
)

// Defaults VHS v0.10.0 uses when a tape does not set them (vhs.go).
const (
	// DefaultTypingSpeed is the pause after each typed key: 50 ms.
	DefaultTypingSpeed = 50 * time.Millisecond
	// DefaultWaitTimeout is how long a Wait step polls: 15 s.
	DefaultWaitTimeout = 15 * time.Second
)

// DefaultWaitPattern is VHS's default Wait pattern: a line ending in the
// prompt character.
var DefaultWaitPattern = regexp.MustCompile(`>$`)

// Tape is a parsed and checked tape: its leading settings and the steps that
// follow them, as VHS's parser produced them.
type Tape struct {
	// Name is the file name without ".tape"; goldens live in testdata/<Name>/.
	Name string
	// Path is the file the tape was read from ("" for ParseTape on a string).
	Path string
	// Settings holds the geometry settings; Cells gives the grid.
	Settings Settings
	// TypingSpeed, WaitTimeout and WaitPattern are the header's values (or
	// VHS's defaults). A TypingSpeed set later in the tape applies from there.
	TypingSpeed time.Duration
	WaitTimeout time.Duration
	WaitPattern *regexp.Regexp
	// Env holds every Env command of the tape, in order, as KEY=value. VHS
	// applies all of them before it starts the shell, wherever they stand.
	Env []string
	// Steps are the commands after the header (Set/Output/Require lines at
	// the top), in order.
	Steps []parser.Command
	// Require names programs the tape needs on the shell's PATH.
	Require []string
	// Screenshots are the golden names (file base without ".png") in order.
	Screenshots []string
}

// ReadTape reads and parses the tape file at path; see ParseTape.
func ReadTape(path string) (*Tape, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read tape: %w", err)
	}
	tp, err := ParseTape(strings.TrimSuffix(filepath.Base(path), ".tape"), string(src))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tp.Path = path
	return tp, nil
}

// ParseTape parses src with VHS v0.10.0's lexer and parser and then checks
// what that parser lets through but VHS would reject or ignore at run time:
// unknown commands, Set values that do not parse, Set after the first action
// (VHS ignores it, except TypingSpeed), sizes below VHS's minimum, repeat
// counts that are not positive integers, chords with no terminal encoding,
// duplicate screenshot names, and shells other than bash. Errors wrap
// ErrSyntax, ErrBadValue or ErrUnsupported and list every problem found.
func ParseTape(name, src string) (*Tape, error) {
	p := parser.New(lexer.New(src))
	cmds := p.Parse()
	if errs := p.Errors(); len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.String()
		}
		return nil, fmt.Errorf("%w:\n%s", ErrSyntax, strings.Join(msgs, "\n"))
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("%w: the tape has no commands", ErrSyntax)
	}
	tp := &Tape{
		Name: name, Settings: DefaultSettings(),
		TypingSpeed: DefaultTypingSpeed, WaitTimeout: DefaultWaitTimeout, WaitPattern: DefaultWaitPattern,
	}
	var problems []error
	bad := func(i int, c parser.Command, err error) {
		problems = append(problems, fmt.Errorf("step %d (%s): %w", i+1, describe(c), err))
	}
	header := true
	seen := map[string]bool{}
	for i, c := range cmds {
		switch c.Type {
		case token.SET:
			if !header && c.Options != "TypingSpeed" {
				bad(i, c, fmt.Errorf("%w: VHS ignores Set after the first action; move it to the top of the tape", ErrUnsupported))
				continue
			}
			target := tp
			if !header {
				// A later TypingSpeed is a step; check it on a scratch copy.
				target = &Tape{}
				tp.Steps = append(tp.Steps, c)
			}
			if err := target.applySet(c.Options, c.Args); err != nil {
				bad(i, c, err)
			}
			continue
		case token.OUTPUT:
			continue // file outputs of real VHS; the runner writes none
		case token.REQUIRE:
			tp.Require = append(tp.Require, c.Args)
			continue
		case token.ENV:
			if !validEnvName(c.Options) {
				bad(i, c, fmt.Errorf("%w: Env needs a variable name of letters, digits and _", ErrBadValue))
			}
			tp.Env = append(tp.Env, c.Options+"="+c.Args)
			continue
		}
		header = false
		if err := checkStep(c); err != nil {
			bad(i, c, err)
		}
		if c.Type == token.SCREENSHOT {
			n := screenshotName(c.Args)
			if seen[n] {
				bad(i, c, fmt.Errorf("%w: screenshot name %q is used twice; golden files are named after it", ErrBadValue, n))
			}
			seen[n] = true
			tp.Screenshots = append(tp.Screenshots, n)
		}
		tp.Steps = append(tp.Steps, c)
	}
	problems = append(problems, tp.checkWhole()...)
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	return tp, nil
}

// checkWhole checks what only the whole tape shows: mouse reports that
// fit the grid, and a frame VHS can draw.
func (tp *Tape) checkWhole() []error {
	var problems []error
	cols, rows := tp.Settings.Cells()
	for i := range tp.Steps {
		if _, _, err := mouseStep(tp.Steps, i, cols, rows); err != nil {
			problems = append(problems, fmt.Errorf("%s after Escape: %w", describe(tp.Steps[i+1]), err))
		}
	}
	if w, h := tp.Settings.minFrame(); tp.Settings.Width < w || tp.Settings.Height < h {
		problems = append(problems, fmt.Errorf("%w: VHS needs Width ≥ %d and Height ≥ %d with this Padding/Margin (got %d × %d); Width/Height are pixels, see vhs/README.md",
			ErrBadValue, w, h, tp.Settings.Width, tp.Settings.Height))
	}
	return problems
}

// Cells returns the tape's terminal grid (Settings.Cells).
func (tp *Tape) Cells() (cols, rows int) { return tp.Settings.Cells() }

// checkStep checks one action command.
func checkStep(c parser.Command) error {
	if c.Options != "" && (c.Type == token.TYPE || isKeyCommand(c.Type)) {
		if d, err := time.ParseDuration(c.Options); err != nil || d < 0 {
			return fmt.Errorf("%w: speed @%s is not a duration", ErrBadValue, c.Options)
		}
	}
	if isKeyCommand(c.Type) {
		if n, err := strconv.Atoi(c.Args); err != nil || n < 1 {
			return fmt.Errorf("%w: repeat count %q must be a whole number ≥ 1", ErrBadValue, c.Args)
		}
		return nil
	}
	switch c.Type {
	case token.TYPE, token.HIDE, token.SHOW, token.COPY, token.PASTE:
		return nil
	case token.CTRL, token.ALT, token.SHIFT:
		_, err := chordKeys(c)
		return err
	case token.SLEEP:
		if d, err := time.ParseDuration(c.Args); err != nil || d < 0 {
			return fmt.Errorf("%w: Sleep wants a duration, got %q", ErrBadValue, c.Args)
		}
		return nil
	case token.WAIT:
		_, _, _, err := waitSpec(c, DefaultWaitPattern, DefaultWaitTimeout)
		return err
	case token.SCREENSHOT:
		if n := screenshotName(c.Args); n == "" || n == "." || strings.HasPrefix(n, ".") {
			return fmt.Errorf("%w: Screenshot needs a file name like ready.png", ErrBadValue)
		}
		return nil
	}
	return fmt.Errorf("%w: command %s", ErrUnsupported, c.Type)
}

// isKeyCommand reports whether t is a repeatable key (Enter, Up, …).
func isKeyCommand(t parser.CommandType) bool {
	_, ok := namedKeys[t]
	return ok
}

// waitSpec returns a Wait step's scope ("Line" or "Screen"), pattern and
// timeout, falling back to the given defaults.
func waitSpec(c parser.Command, defPattern *regexp.Regexp, defTimeout time.Duration) (string, *regexp.Regexp, time.Duration, error) {
	scope, rx, hasRx := strings.Cut(c.Args, " ")
	pattern := defPattern
	if hasRx {
		var err error
		if pattern, err = regexp.Compile(rx); err != nil {
			return "", nil, 0, fmt.Errorf("%w: Wait pattern: %v", ErrBadValue, err)
		}
	}
	if scope != "Line" && scope != "Screen" {
		return "", nil, 0, fmt.Errorf("%w: Wait scope %q (want Line or Screen)", ErrBadValue, scope)
	}
	timeout := defTimeout
	if c.Options != "" {
		d, err := time.ParseDuration(c.Options)
		if err != nil || d <= 0 {
			return "", nil, 0, fmt.Errorf("%w: Wait@%s is not a positive duration", ErrBadValue, c.Options)
		}
		timeout = d
	}
	return scope, pattern, timeout, nil
}

// screenshotName is the golden name of a Screenshot path: its base name
// without ".png".
func screenshotName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".png")
}

func validEnvName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// describe renders a command close to how it is written in the tape.
func describe(c parser.Command) string {
	name := c.Type.String()
	switch c.Type {
	case token.SET:
		return fmt.Sprintf("Set %s %s", c.Options, c.Args)
	case token.ENV:
		return fmt.Sprintf("Env %s %q", c.Options, c.Args)
	case token.TYPE:
		if c.Options != "" {
			return fmt.Sprintf("Type@%s %q", c.Options, c.Args)
		}
		return fmt.Sprintf("Type %q", c.Args)
	case token.CTRL, token.ALT, token.SHIFT:
		return name + "+" + strings.ReplaceAll(c.Args, " ", "+")
	case token.WAIT:
		scope, rx, hasRx := strings.Cut(c.Args, " ")
		s := "Wait+" + scope
		if c.Options != "" {
			s += "@" + c.Options
		}
		if hasRx {
			s += " /" + rx + "/"
		}
		return s
	}
	s := name
	if c.Options != "" {
		s += "@" + c.Options
	}
	if c.Args != "" && c.Args != "1" {
		s += " " + c.Args
	}
	return s
}
