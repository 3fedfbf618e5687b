//go:build unix

package serve

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestTokenFile: the first call makes the directory (0700) and the token
// file (0600, 64 hex digits); later calls, even concurrent ones, read the
// same token.
func TestTokenFile(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "jobdeck")
	var wg sync.WaitGroup
	tokens := make([]string, 8)
	for i := range tokens {
		wg.Go(func() {
			tok, path, err := tokenIn("", dir)
			if err != nil || path != filepath.Join(dir, TokenFileName) {
				t.Errorf("tokenIn: %q, %v", path, err)
			}
			tokens[i] = tok
		})
	}
	wg.Wait()
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(tokens[0]) {
		t.Errorf("token %q is not 64 hex digits", tokens[0])
	}
	for _, tok := range tokens {
		if tok != tokens[0] {
			t.Errorf("concurrent calls made different tokens: %q", tokens)
			break
		}
	}
	again, _, err := tokenIn("", dir)
	if err != nil || again != tokens[0] {
		t.Errorf("second call: %q, %v; want the same token", again, err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, filepath.Join(dir, TokenFileName): 0o600} {
		if st, err := os.Lstat(path); err != nil || st.Mode() != want {
			t.Errorf("%s: mode %v, want %v (%v)", path, st.Mode(), want, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left in %s: %v, want only the token", dir, entries)
	}
}

// TestTokenFileRefused: a directory or file others could read or swap is
// refused with a message saying what to fix.
func TestTokenFileRefused(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		setup func(t *testing.T, dir string)
		want  error
		says  string
	}{
		"dir mode 0755": {func(t *testing.T, dir string) { os.Mkdir(dir, 0o755); os.Chmod(dir, 0o755) }, ErrUnsafeDir, "chmod 700 "},
		"dir is a symlink": {func(t *testing.T, dir string) {
			real := dir + "-real"
			os.Mkdir(real, 0o700)
			os.Symlink(real, dir)
		}, ErrUnsafeDir, "symlink"},
		"dir is a file": {func(t *testing.T, dir string) { os.WriteFile(dir, nil, 0o600) }, ErrUnsafeDir, "not a directory"},
		"file mode 0644": {func(t *testing.T, dir string) {
			os.Mkdir(dir, 0o700)
			os.WriteFile(filepath.Join(dir, TokenFileName), []byte(strings.Repeat("a", 64)), 0o644)
			os.Chmod(filepath.Join(dir, TokenFileName), 0o644)
		}, ErrUnsafeDir, "chmod 600 "},
		"file is a symlink": {func(t *testing.T, dir string) {
			os.Mkdir(dir, 0o700)
			os.WriteFile(dir+"-elsewhere", []byte(strings.Repeat("a", 64)), 0o600)
			os.Symlink(dir+"-elsewhere", filepath.Join(dir, TokenFileName))
		}, ErrUnsafeDir, "symlink"},
		"file is a directory": {func(t *testing.T, dir string) {
			os.Mkdir(dir, 0o700)
			os.Mkdir(filepath.Join(dir, TokenFileName), 0o600)
		}, ErrUnsafeDir, "not a regular file"},
		"file holds no token": {func(t *testing.T, dir string) {
			os.Mkdir(dir, 0o700)
			os.WriteFile(filepath.Join(dir, TokenFileName), []byte("short\n"), 0o600)
		}, ErrBadToken, "remove the file"},
	}
	if os.Geteuid() == 0 {
		cases["dir of another user"] = struct {
			setup func(t *testing.T, dir string)
			want  error
			says  string
		}{func(t *testing.T, dir string) { os.Mkdir(dir, 0o700); os.Chown(dir, otherUID(t), otherUID(t)) }, ErrUnsafeDir, "belongs to uid"}
	} else {
		t.Log("not root: the case of a directory of another user is left out")
	}
	for name, c := range cases {
		dir := filepath.Join(t.TempDir(), "jobdeck")
		c.setup(t, dir)
		_, _, err := tokenIn("", dir)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want %v saying %q", name, err, c.want, c.says)
		}
	}
}

// TestTokenFromEnv: JOBDECK_TOKEN is the token when set, if usable.
func TestTokenFromEnv(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "jobdeck")
	if tok, path, err := tokenIn("my-own-token-0123456789", dir); err != nil || tok != "my-own-token-0123456789" || path != "" {
		t.Errorf("tokenIn(env) = %q, %q, %v", tok, path, err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("with JOBDECK_TOKEN set, %s was made", dir)
	}
	for _, bad := range []string{"short", "has a space in it 0123456789", "tab\tin-it-0123456789", "nonascii-é-0123456789"} {
		if _, _, err := tokenIn(bad, dir); !errors.Is(err, ErrBadToken) {
			t.Errorf("tokenIn(%q) = %v, want ErrBadToken", bad, err)
		}
	}
}
