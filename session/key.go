package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// Target says which session a client wants: the session of a worktree, or
// a session named by the user.
type Target struct {
	// Name is the session's name (--session NAME), or "" for the session of
	// Worktree.
	Name string
	// Worktree is the canonical path of the worktree (absolute, symbolic
	// links resolved). For a named session it is only informational: the
	// directory of the client that started it.
	Worktree string
}

// maxName is the longest session name accepted.
const maxName = 64

// ErrBadName is wrapped by CheckName's error.
var ErrBadName = errors.New("bad session name")

// CheckName checks a session name given with --session: 1 to 64 characters
// of A–Z a–z 0–9 . _ -, not starting with a dot.
func CheckName(name string) error {
	ok := name != "" && len(name) <= maxName && name[0] != '.'
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("%w %q: use 1 to %d letters, digits, '.', '_' or '-' (not starting with '.'), e.g. --session web", ErrBadName, model.OneLine(name, 2*maxName), maxName)
	}
	return nil
}

// Key is the file-name stem of the session in the session directory:
// "w-" and 16 hex digits of the SHA-256 of the worktree path, or "n-" and
// the name.
func (t Target) Key() string {
	if t.Name != "" {
		return "n-" + t.Name
	}
	sum := sha256.Sum256([]byte(t.Worktree))
	return "w-" + hex.EncodeToString(sum[:8])
}

// Label is how messages name the session: its worktree path (on one line
// as model.OneLine shows it: a path's escape sequences show as "␛…" and
// never reach a terminal), or `session "NAME"`.
func (t Target) Label() string {
	if t.Name != "" {
		return fmt.Sprintf("session %q", t.Name)
	}
	return model.OneLine(t.Worktree, 0)
}

// Phrase names the session in a sentence: "the session of /home/me/app",
// or `session "web"`.
func (t Target) Phrase() string {
	if t.Name != "" {
		return t.Label()
	}
	return "the session of " + t.Label()
}

// gitTimeout bounds `git rev-parse`: a hung git (a network filesystem)
// must not hang jobdeck's start.
const gitTimeout = 3 * time.Second

// Worktree returns the worktree a client started in dir belongs to: the top
// level of its git work tree (`git rev-parse --show-toplevel`; where git is
// not on PATH or refuses the repository, the nearest directory above dir
// that holds a .git entry), or dir itself outside git, with symbolic links
// resolved, so that every path to the same directory names the same
// session.
func Worktree(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find the worktree of %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	top, ok := gitTop(abs)
	if !ok {
		top = dotGitAbove(abs)
	}
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	return filepath.Clean(top), nil
}

// dotGitAbove is the nearest directory from dir up that holds a .git entry
// (a directory, or the file of a linked worktree), or dir when none does.
func dotGitAbove(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// gitTop asks git for the top level of dir's work tree; ok is false when
// git is not on PATH or does not answer with one.
func gitTop(abs string) (string, bool) {
	top := abs
	found := false
	if git, err := exec.LookPath("git"); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, git, "rev-parse", "--show-toplevel")
		cmd.Dir = abs
		cmd.Env = append(cmd.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
		if out, err := cmd.Output(); err == nil {
			if t := strings.TrimSpace(string(bytes.TrimRight(out, "\n"))); t != "" && filepath.IsAbs(t) {
				top, found = t, true
			}
		}
	}
	return top, found
}
