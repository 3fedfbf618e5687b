//go:build unix

package process

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// privateDir makes the job's private directory (os.MkdirTemp, 0700) in
// sys.PrivateBase(env), named wire.PrivateName(session, job) and a random
// suffix: it holds the stop mark and, for a long command, the command
// file. finish (or a failed start) removes it; jobdeck does when the
// supervisor dies first.
func privateDir(env []string, session string, job int) (string, error) {
	return os.MkdirTemp(sys.PrivateBase(env), wire.PrivateName(session, job)+"-")
}

// writeCommandFile writes cmd to the 0600 file "command" in the private
// directory dir and returns its path.
func writeCommandFile(cmd []byte, dir string) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("the command is %d bytes, too long for the environment, and no private temporary directory could be made", len(cmd))
	}
	file := filepath.Join(dir, "command")
	if err := os.WriteFile(file, cmd, 0o600); err != nil {
		return "", fmt.Errorf("write the command to a private temporary file: %w", err)
	}
	return file, nil
}

// stopMark is the path whose existence tells the leader's wrapper that
// jobdeck is stopping the job; "" without a private directory.
func stopMark(dir string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "stopping")
}
