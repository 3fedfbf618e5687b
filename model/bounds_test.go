package model

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBounds checks every bound at its edge: the last value accepted and
// the first refused, each refusal an *InputError naming its field and
// wrapping its sentinel.
func TestBounds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	dirErr := func(d string) error { _, err := CheckDir(d, dir); return err }
	nameErr := func(n string) error { _, err := CheckName(n); return err }
	patErr := func(p string) error { _, err := CompilePattern(FieldUntil, p); return err }
	cases := []boundCase{
		{"command", CheckCommand("echo hi"), "", nil, ""},
		{"command at 1 MiB", CheckCommand(strings.Repeat("x", MaxCommandBytes)), "", nil, ""},
		{"command over 1 MiB", CheckCommand(strings.Repeat("x", MaxCommandBytes+1)), FieldCommand, ErrBadSpec, "1 MiB"},
		{"blank command", CheckCommand(" \t\n"), FieldCommand, ErrBadSpec, "command is empty"},
		{"NUL in command", CheckCommand("a\x00b"), FieldCommand, ErrBadSpec, "NUL"},
		{"name", nameErr(" web "), "", nil, ""},
		{"name at 64 bytes", nameErr(strings.Repeat("n", MaxNameBytes)), "", nil, ""},
		{"name over 64 bytes", nameErr(strings.Repeat("n", MaxNameBytes+1)), FieldName, ErrBadSpec, "64 bytes"},
		{"numeric name", nameErr("42"), FieldName, ErrBadSpec, "is a number"},
		{"name with a newline", nameErr("a\nb"), FieldName, ErrBadSpec, "one line"},
		{"cwd", dirErr(""), "", nil, ""},
		{"relative cwd", dirErr("."), "", nil, ""},
		{"missing cwd", dirErr("nope"), FieldDir, ErrBadSpec, "does not exist"},
		{"cwd below a file", dirErr(filepath.Join(file, "x")), FieldDir, ErrBadSpec, "does not exist"},
		{"cwd is a file", dirErr(file), FieldDir, ErrBadSpec, "is not a directory"},
		{"env", CheckEnv([]string{"A=1", "B="}), "", nil, ""},
		{"env without =", CheckEnv([]string{"A"}), FieldEnv, ErrBadSpec, "KEY=VALUE"},
		{"env with NUL", CheckEnv([]string{"A=\x00"}), FieldEnv, ErrBadSpec, "NUL"},
		{"grace 0", CheckGrace(0, ErrBadRequest), "", nil, ""},
		{"grace at 5 min", CheckGrace(MaxGrace, ErrBadRequest), "", nil, ""},
		{"grace over 5 min", CheckGrace(MaxGrace+time.Nanosecond, ErrBadRequest), FieldGrace, ErrBadRequest, "0 to 5m0s"},
		{"negative grace", CheckGrace(-time.Second, ErrBadSpec), FieldGrace, ErrBadSpec, "grace is -1s"},
		{"lines 1", CheckLines(1), "", nil, ""},
		{"lines 2000", CheckLines(MaxStatusLines), "", nil, ""},
		{"lines 0", CheckLines(0), FieldLines, ErrBadRequest, "1 to 2000"},
		{"lines 2001", CheckLines(MaxStatusLines + 1), FieldLines, ErrBadRequest, "1 to 2000"},
		{"wait 0", CheckWait(0), "", nil, ""},
		{"wait 10 min", CheckWait(MaxWait), "", nil, ""},
		{"wait over 10 min", CheckWait(MaxWait + 1), FieldWait, ErrBadRequest, "0 to 600 seconds"},
		{"negative wait", CheckWait(-1), FieldWait, ErrBadRequest, "0 to 600 seconds"},
		{"since at last", CheckSince(5, 5, 2), "", nil, ""},
		{"since beyond last", CheckSince(6, 5, 2), FieldSince, ErrBadRequest, "beyond the last line of job 2 (5)"},
		{"pattern", patErr("ready|listening"), "", nil, ""},
		{"pattern at 4 KiB", patErr(strings.Repeat("a", MaxPatternBytes)), "", nil, ""},
		{"pattern over 4 KiB", patErr(strings.Repeat("a", MaxPatternBytes+1)), FieldUntil, ErrBadRequest, "4096-byte limit"},
		{"bad pattern", patErr("ready("), FieldUntil, ErrBadRequest, "missing closing )"},
	}
	checkBounds(t, cases)
}

// TestHugePatternRefusedBeforeCompiling: a 1 MiB until is refused for
// its size before any compiling (which would take seconds).
func TestHugePatternRefusedBeforeCompiling(t *testing.T) {
	t.Parallel()
	// Unbalanced at its end: compiling it would fail with a syntax error
	// (after seconds of CPU for the rest), so a refusal that names the
	// size limit was made before any compiling.
	p := strings.Repeat("(a|b)*", (1<<20)/6) + "("
	_, err := CompilePattern(FieldUntil, p)
	if err == nil || !strings.Contains(err.Error(), "limit of a pattern") {
		t.Fatalf("1 MiB pattern: err %v, want the refusal of its size", err)
	}
}

// TestErrorCodes: every sentinel has a code, and the code leads back to
// the same sentinel, also through wrapping; other errors are internal.
func TestErrorCodes(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, c := range errorCodes {
		wrapped := fmt.Errorf("job 3: %w", c.err)
		code := ErrorCode(wrapped)
		if code != c.code || seen[code] {
			t.Errorf("ErrorCode(%v) = %q, want the unique %q", wrapped, code, c.code)
		}
		seen[code] = true
		if back := CodeError(code); back != c.err {
			t.Errorf("CodeError(%q) = %v, want %v", code, back, c.err)
		}
	}
	if got := ErrorCode(CheckLines(0)); got != "bad_request" {
		t.Errorf("an InputError's code is %q, want bad_request", got)
	}
	if got := ErrorCode(errors.New("boom")); got != CodeInternal {
		t.Errorf("unknown error: code %q", got)
	}
	if ErrorCode(nil) != "" || CodeError(CodeInternal) != nil || CodeError("nonsense") != nil {
		t.Error("nil and unknown codes must map to nothing")
	}
	if !errors.Is(fmt.Errorf("%w: x", CodeError(ErrorCode(context.Canceled))), context.Canceled) {
		t.Error("canceled does not round-trip")
	}
}

// TestForeignSignal: the fact behind "this SIGKILL was not sent by
// jobdeck" notes.
func TestForeignSignal(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		s    Snapshot
		want ForeignSignal
		ok   bool
	}{
		{"running", Snapshot{}, ForeignSignal{}, false},
		{"sigkill", Snapshot{Exit: &Exit{Signal: 9}}, ForeignSignal{Signal: 9}, true},
		{"sighup", Snapshot{Exit: &Exit{Signal: 1}}, ForeignSignal{Signal: 1}, true},
		{"sigsegv is its own story", Snapshot{Exit: &Exit{Signal: 11}}, ForeignSignal{}, false},
		{"137 through bash", Snapshot{Exit: &Exit{Code: 137}}, ForeignSignal{Signal: 9, ViaShell: true}, true},
		{"143 through bash", Snapshot{Exit: &Exit{Code: 143}}, ForeignSignal{Signal: 15, ViaShell: true}, true},
		{"stopped by jobdeck", Snapshot{Exit: &Exit{Signal: 15}, Stop: &Stop{}}, ForeignSignal{}, false},
		{"lost supervisor", Snapshot{Exit: &Exit{Signal: 9}, Err: "lost"}, ForeignSignal{}, false},
		{"exit 1", Snapshot{Exit: &Exit{Code: 1}}, ForeignSignal{}, false},
	}
	for _, c := range cases {
		if got, ok := c.s.ForeignSignal(); got != c.want || ok != c.ok {
			t.Errorf("%s: %+v %v, want %+v %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// boundCase is a checked input: accepted (field "") or refused with an
// *InputError for field, wrapping kind, whose message contains msg.
type boundCase struct {
	name  string
	err   error
	field string // "" means accepted
	kind  error
	msg   string
}

// checkBounds checks each case.
func checkBounds(t *testing.T, cases []boundCase) {
	t.Helper()
	for _, c := range cases {
		if c.field == "" {
			if c.err != nil {
				t.Errorf("%s: refused: %v", c.name, c.err)
			}
			continue
		}
		ie, ok := errors.AsType[*InputError](c.err)
		if !ok || ie.Field != c.field || !errors.Is(c.err, c.kind) || !strings.Contains(c.err.Error(), c.msg) {
			t.Errorf("%s: err = %#v (%v), want an InputError for %s wrapping %v mentioning %q", c.name, c.err, c.err, c.field, c.kind, c.msg)
		}
	}
}

// TestReadBounds checks the bounds of a read at their edges: head,
// context, and a result's byte budget.
func TestReadBounds(t *testing.T) {
	t.Parallel()
	checkBounds(t, []boundCase{
		{"head 1", CheckHead(1, 0), "", nil, ""},
		{"head 2000", CheckHead(MaxStatusLines, 0), "", nil, ""},
		{"head 0", CheckHead(0, 0), FieldHead, ErrBadRequest, "1 to 2000"},
		{"head 2001", CheckHead(MaxStatusLines+1, 0), FieldHead, ErrBadRequest, "1 to 2000"},
		{"head with lines", CheckHead(5, 5), FieldHead, ErrBadRequest, "give one of them"},
		{"context 0", CheckContext(0, ""), "", nil, ""},
		{"context 20", CheckContext(MaxContext, "x"), "", nil, ""},
		{"context 21", CheckContext(MaxContext+1, "x"), FieldContext, ErrBadRequest, "0 to 20"},
		{"negative context", CheckContext(-1, "x"), FieldContext, ErrBadRequest, "0 to 20"},
		{"context without grep", CheckContext(2, ""), FieldContext, ErrBadRequest, "needs grep"},
		{"max_bytes 1 KiB", CheckResultBytes(MinResultBytes), "", nil, ""},
		{"max_bytes 256 KiB", CheckResultBytes(MaxResultBytes), "", nil, ""},
		{"max_bytes under 1 KiB", CheckResultBytes(MinResultBytes - 1), FieldBytes, ErrBadRequest, "1024 to 262144"},
		{"max_bytes over 256 KiB", CheckResultBytes(MaxResultBytes + 1), FieldBytes, ErrBadRequest, "1024 to 262144"},
	})
}

// TestCheckDirBaseGone: when the default directory itself was deleted, the
// refusal says that directory no longer exists and what to do, not that
// cwd "" does not exist.
func TestCheckDirBaseGone(t *testing.T) {
	t.Parallel()
	base := filepath.Join(t.TempDir(), "gone")
	_, err := CheckDir("", base)
	if err == nil || !strings.Contains(err.Error(), "the directory "+base+" no longer exists") ||
		!strings.Contains(err.Error(), "mkdir -p "+base) || strings.Contains(err.Error(), `""`) {
		t.Fatalf("CheckDir of a deleted base: %v", err)
	}
	if ie, ok := errors.AsType[*InputError](err); !ok || ie.Field != FieldDefaultDir {
		t.Errorf("CheckDir of a deleted base: field %v, want %q (no cwd was given)", err, FieldDefaultDir)
	}
}
