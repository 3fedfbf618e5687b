package model

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Bounds of every input the jobs core takes. They are defined here once;
// the core checks them with the functions below, and the edges (console,
// MCP server) only reword the errors those return.
const (
	// MaxCommandBytes is the longest command text accepted: 1 MiB.
	// Commands longer than one argv string (about 128 KiB on Linux) still
	// run, from a private temporary file.
	MaxCommandBytes = 1 << 20
	// MaxNameBytes is the longest job name accepted, in bytes.
	MaxNameBytes = 64
	// DefaultGrace is the time between SIGTERM and SIGKILL when nobody
	// says otherwise: 5 s.
	DefaultGrace = 5 * time.Second
	// MaxGrace is the longest grace accepted anywhere (a job's spec, a
	// stop request, jobdeck's --grace): 5 minutes.
	MaxGrace = 5 * time.Minute
	// DefaultStatusLines is how many lines a status shows when not told.
	DefaultStatusLines = 50
	// MaxStatusLines is the most lines one status returns: the ring's size.
	MaxStatusLines = 2000
	// MaxWait is the longest a status request may wait for a job: 10
	// minutes.
	MaxWait = 10 * time.Minute
	// MaxCursor is the largest cursor (since) a request may give: 2^53,
	// the largest whole number a JSON number holds exactly. A job's seqs
	// never come near it.
	MaxCursor = 1 << 53
	// MaxPatternBytes is the longest regular expression accepted (until,
	// grep): 4 KiB. Longer ones are refused before compiling, since
	// compiling costs time and memory in proportion to the pattern.
	MaxPatternBytes = 4 << 10
	// MaxContext is the most lines shown before and after each grep
	// match: 20.
	MaxContext = 20
	// DefaultResultBytes is the byte budget of an agent's text result when
	// the call does not ask for another: 16 KiB.
	DefaultResultBytes = 16 << 10
	// MinResultBytes and MaxResultBytes bound the byte budget a call may
	// ask for: 1 KiB to 256 KiB.
	MinResultBytes = 1 << 10
	MaxResultBytes = 256 << 10
)

// Input fields, as InputError.Field names them.
const (
	FieldCommand = "command"
	FieldName    = "name"
	FieldDir     = "cwd"
	// FieldDefaultDir is a job without cwd whose default directory (its
	// client's, or the core's) no longer exists: no cwd was given.
	FieldDefaultDir = "default cwd"
	FieldEnv        = "env"
	FieldGrace      = "grace"
	FieldLines      = "lines"
	FieldSince      = "since"
	FieldWait       = "wait"
	FieldUntil      = "until"
	FieldGrep       = "grep"
	FieldContext    = "context"
	FieldHead       = "head"
	FieldBytes      = "max_bytes"
)

// InputError is a refused input: which field, and what is wrong with it,
// in words that name no surface (no tool, no key). It wraps ErrBadSpec
// (a start) or ErrBadRequest (a status, read or stop request), so
// errors.Is and ErrorCode work on it; edges may use Field to add how to
// give the field on their surface.
type InputError struct {
	// Err is ErrBadSpec or ErrBadRequest.
	Err error
	// Field is the input at fault: one of the Field* constants.
	Field string
	// Msg says what is wrong and what to give instead: "the command is
	// empty: give the shell command to run, for example \"npm run dev\"".
	Msg string
}

// Error returns Msg.
func (e *InputError) Error() string { return e.Msg }

// Unwrap returns Err (ErrBadSpec or ErrBadRequest).
func (e *InputError) Unwrap() error { return e.Err }

func badSpec(field, format string, args ...any) error {
	return &InputError{Err: ErrBadSpec, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func badRequest(field, format string, args ...any) error {
	return &InputError{Err: ErrBadRequest, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// CheckCommand refuses a command that is blank, longer than
// MaxCommandBytes or holds a NUL byte. Errors are *InputError (ErrBadSpec,
// FieldCommand).
func CheckCommand(cmd string) error {
	switch {
	case strings.TrimSpace(cmd) == "":
		return badSpec(FieldCommand, "the command is empty or blank: give the shell command to run, for example \"npm run dev\"")
	case len(cmd) > MaxCommandBytes:
		return badSpec(FieldCommand, "the command is %d bytes, over the 1 MiB limit (%d bytes): write it to a script file and run that file instead", len(cmd), MaxCommandBytes)
	case strings.IndexByte(cmd, 0) >= 0:
		return badSpec(FieldCommand, "the command contains a NUL byte, which no shell command can hold: remove it")
	}
	return nil
}

// NameRule is the rule of a job's name, in the words docs/agent-tools.md and every
// refusal use: any printable text on one line, spaces included, but not a
// number. A Procfile's names are stricter (its format's), and are checked
// there as well as here.
const NameRule = "a name is one line of at most 64 bytes without control characters, and not a number (it would read as a job ID); spaces are allowed, and names are compared without case"

// CheckName trims name and refuses one that reads as a job ID (a decimal
// number) or is not one line of at most MaxNameBytes bytes without control
// characters. It returns the trimmed name; "" is no name and is fine.
// Errors are *InputError (ErrBadSpec, FieldName).
func CheckName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", nil
	}
	if _, err := strconv.Atoi(name); err == nil {
		return name, badSpec(FieldName, "name %q is a number and would read as a job ID: pick a name with a letter in it (%s)", name, NameRule)
	}
	if OneLine(name, 0) != name || len(name) > MaxNameBytes {
		return name, badSpec(FieldName, "%s, like \"web\" or \"dev server\"", NameRule)
	}
	return name, nil
}

// CheckDir resolves a working directory against base (dir empty: base;
// relative: joined to base) and checks that it is an existing directory.
// It returns the cleaned absolute path. Errors are *InputError
// (ErrBadSpec, FieldDir).
func CheckDir(dir, base string) (string, error) {
	abs := dir
	switch {
	case dir == "":
		abs = base
	case !filepath.IsAbs(dir):
		abs = filepath.Join(base, dir)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		if dir == "" {
			// The default directory itself went (deleted or moved since
			// jobs started there): say that, not that "" is missing.
			return "", badSpec(FieldDefaultDir, "the directory %s no longer exists (deleted or moved since jobs started there): recreate it (mkdir -p %s), or give a directory that exists", base, base)
		}
		return "", badSpec(FieldDir, "cwd %q does not exist (deleted or moved, if it did): give an existing directory, absolute or relative to %s", dir, base)
	case err != nil:
		return "", badSpec(FieldDir, "cwd %q cannot be used (%v): give a directory you can read", dir, err)
	case !fi.IsDir():
		return "", badSpec(FieldDir, "cwd %q is not a directory: give the directory to run in (%q)", dir, filepath.Dir(abs))
	}
	return filepath.Clean(abs), nil
}

// CheckEnv refuses an environment entry that is not KEY=VALUE or holds a
// NUL byte. Errors are *InputError (ErrBadSpec, FieldEnv).
func CheckEnv(env []string) error {
	for _, kv := range env {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" || strings.IndexByte(kv, 0) >= 0 {
			return badSpec(FieldEnv, "environment entry %q is not KEY=VALUE without NUL bytes: fix or remove it", OneLine(kv, 60))
		}
	}
	return nil
}

// CheckGrace refuses a grace below zero or above MaxGrace; zero is fine
// (SIGKILL at once). kind is ErrBadSpec for a spec, ErrBadRequest for a
// stop request. Errors are *InputError (FieldGrace).
func CheckGrace(g time.Duration, kind error) error {
	if g < 0 || g > MaxGrace {
		return &InputError{Err: kind, Field: FieldGrace, Msg: fmt.Sprintf("grace is %v: give 0 to %v (0 sends SIGKILL at once; default %v)", g, MaxGrace, DefaultGrace)}
	}
	return nil
}

// CheckLines refuses a line count outside 1 to MaxStatusLines. Callers
// turn zero (not given) into DefaultStatusLines first. Errors are
// *InputError (ErrBadRequest, FieldLines).
func CheckLines(n int) error {
	if n < 1 || n > MaxStatusLines {
		return badRequest(FieldLines, "lines is %d: give 1 to %d (default %d)", n, MaxStatusLines, DefaultStatusLines)
	}
	return nil
}

// CheckHead refuses a head count outside 1 to MaxStatusLines, and a head
// given together with a line count (lines > 0). Errors are *InputError
// (ErrBadRequest, FieldHead).
func CheckHead(head, lines int) error {
	switch {
	case head < 1 || head > MaxStatusLines:
		return badRequest(FieldHead, "head is %d: give 1 to %d (the oldest lines; lines gives the newest)", head, MaxStatusLines)
	case lines > 0:
		return badRequest(FieldHead, "head and lines both given: head asks for the oldest lines, lines for the newest; give one of them")
	}
	return nil
}

// CheckContext refuses a context outside 0 to MaxContext, or one given
// without a grep pattern. Errors are *InputError (ErrBadRequest,
// FieldContext).
func CheckContext(n int, grep string) error {
	switch {
	case n < 0 || n > MaxContext:
		return badRequest(FieldContext, "context is %d: give 0 to %d lines around each match", n, MaxContext)
	case n > 0 && grep == "":
		return badRequest(FieldContext, "context needs grep: it is the number of lines shown around each match of the grep pattern")
	}
	return nil
}

// CheckResultBytes refuses a result byte budget outside MinResultBytes to
// MaxResultBytes. Errors are *InputError (ErrBadRequest, FieldBytes).
func CheckResultBytes(n int) error {
	if n < MinResultBytes || n > MaxResultBytes {
		return badRequest(FieldBytes, "max_bytes is %d: give %d to %d (default %d); for more, read in parts with since and head", n, MinResultBytes, MaxResultBytes, DefaultResultBytes)
	}
	return nil
}

// CheckWait refuses a wait below zero or above MaxWait. Errors are
// *InputError (ErrBadRequest, FieldWait).
func CheckWait(d time.Duration) error {
	if d < 0 || d > MaxWait {
		return badRequest(FieldWait, "wait is %v: give 0 to %d seconds (fractions allowed)", d, int(MaxWait/time.Second))
	}
	return nil
}

// CheckSince refuses a cursor beyond last, the seq of job id's newest
// line. Errors are *InputError (ErrBadRequest, FieldSince).
func CheckSince(since, last uint64, id JobID) error {
	if since > last {
		return badRequest(FieldSince, "since is %d, beyond the last line of job %d (%d): pass the next cursor of an earlier result (or 0 for everything)", since, id, last)
	}
	return nil
}

// StatusPatterns are the compiled patterns of a checked status request.
type StatusPatterns struct {
	// Grep is StatusOptions.Grep compiled, nil without one.
	Grep *regexp.Regexp
	// Until is StatusOptions.Until compiled, nil without one.
	Until *regexp.Regexp
}

// CheckStatus checks every part of a status request that does not depend
// on the job (lines or head, context, grep, wait, until and that until
// needs wait) and returns its patterns compiled. Since is the job's to
// check (CheckSince). Edges call it before anything starts (a start that
// waits: its read must be good before the job runs); the core calls it
// for every request. Errors are *InputError (ErrBadRequest).
func CheckStatus(opts StatusOptions) (StatusPatterns, error) {
	var p StatusPatterns
	if opts.Head != 0 {
		if err := CheckHead(opts.Head, opts.Lines); err != nil {
			return p, err
		}
	} else {
		lines := opts.Lines
		if lines == 0 {
			lines = DefaultStatusLines
		}
		if err := CheckLines(lines); err != nil {
			return p, err
		}
	}
	if err := CheckContext(opts.Context, opts.Grep); err != nil {
		return p, err
	}
	var err error
	if opts.Grep != "" {
		if p.Grep, err = CompilePattern(FieldGrep, opts.Grep); err != nil {
			return p, err
		}
	}
	if err := CheckWait(opts.Wait); err != nil {
		return p, err
	}
	if opts.Until != "" {
		if opts.Wait == 0 {
			return p, badRequest(FieldUntil, "until needs wait: give how many seconds to wait for a matching line")
		}
		if p.Until, err = CompilePattern(FieldUntil, opts.Until); err != nil {
			return p, err
		}
	}
	return p, nil
}

// CompilePattern compiles a regular expression given for field (FieldUntil
// or FieldGrep), in Go's RE2 syntax. A pattern longer than MaxPatternBytes
// is refused before compiling. Errors are *InputError (ErrBadRequest).
func CompilePattern(field, pattern string) (*regexp.Regexp, error) {
	if len(pattern) > MaxPatternBytes {
		return nil, badRequest(field, "%s is %d bytes, over the %d-byte limit of a pattern: match a shorter, distinctive part of the line", field, len(pattern), MaxPatternBytes)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, badRequest(field, "%s is not a valid regular expression (%v): use Go RE2 syntax, e.g. \"ready|listening on\"; escape literal ( [ . * + ? with a backslash", field, err)
	}
	return re, nil
}
