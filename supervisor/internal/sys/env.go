package sys

import (
	"os"
	"path/filepath"
	"strings"
)

// LookEnv returns the last value of name in env (a list of "NAME=value"),
// as the environment of a program started with it would have it.
func LookEnv(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// PrivateBase is where the private directory of a job with environment
// env goes: its TMPDIR when that is an absolute path to a directory, else
// os.TempDir (the supervisor's, which is jobdeck's: it inherits jobdeck's
// environment). The supervisor makes the directory there and jobdeck looks
// there when it removes what a dead supervisor left.
func PrivateBase(env []string) string {
	if t, ok := LookEnv(env, "TMPDIR"); ok && filepath.IsAbs(t) {
		if st, err := os.Stat(t); err == nil && st.IsDir() {
			return t
		}
	}
	return os.TempDir()
}
