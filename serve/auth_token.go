package serve

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// TokenFileName is the name of the HTTP token file in the user's private
// directory (see HTTPToken).
const TokenFileName = "http-token"

// tokenBytes is the size of a generated token: 256 random bits, written
// as 64 hex digits.
const tokenBytes = 32

// ErrUnsafeDir is returned when the directory for jobdeck's private files,
// or the token file in it, could be read or replaced by another user, or
// is a symlink.
var ErrUnsafeDir = errors.New("not private to this user")

// userDirPath is jobdeck's private directory for the current user:
// $XDG_RUNTIME_DIR/jobdeck when XDG_RUNTIME_DIR is set, else
// jobdeck-<uid> in the temporary directory (see openPrivateDir).
func userDirPath() string {
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" && filepath.IsAbs(rt) {
		return filepath.Join(rt, "jobdeck")
	}
	return filepath.Join(os.TempDir(), "jobdeck-"+strconv.Itoa(os.Geteuid()))
}

// HTTPToken returns the token for `jobdeck --serve --http` and where it
// came from. env is JOBDECK_TOKEN's value: when not empty, it is the
// token (checked with CheckToken) and path is "". Otherwise the token is
// read from TokenFileName in the user's private directory
// ($XDG_RUNTIME_DIR/jobdeck, else jobdeck-<uid> in the temporary
// directory; mode 0700, made when missing). The file is made the first
// time, with a new random token (256 bits, hex) and mode 0600, and reused
// by every later jobdeck of the same user; path is that file. A file that
// is not the user's own, not mode 0600, a symlink or not a token is an
// error (wrapping ErrUnsafeDir or ErrBadToken) that says what to fix.
// Where there is no Unix, only env can give the token.
func HTTPToken(env string) (token, path string, err error) {
	return tokenIn(env, userDirPath())
}

// tokenIn is HTTPToken with the directory given.
func tokenIn(env, dir string) (token, path string, err error) {
	if env != "" {
		if err := CheckToken(env); err != nil {
			return "", "", fmt.Errorf("JOBDECK_TOKEN: %w", err)
		}
		return env, "", nil
	}
	return tokenFile(dir)
}
