//go:build unix

package supervisor

import (
	"fmt"
	"os"

	"github.com/creack/pty"
)

// ptyOpen opens a pty pair (master, slave); tests replace it to run out of
// ptys.
var ptyOpen = pty.Open

// openPty opens a pty for a job's stdout or stderr, sized rows×cols, in raw output
// mode (rawOutput), its master made the file Handle gives out (readEnd);
// both ends are added to owned. notes says what of that could not be done: the job runs
// all the same.
func openPty(rows, cols int, owned *fileSet) (master, slave *os.File, notes []string, err error) {
	master, slave, err = ptyOpen()
	if err != nil {
		return nil, nil, nil, err
	}
	owned.add(master, slave)
	if err := pty.Setsize(master, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)}); err != nil {
		notes = append(notes, fmt.Sprintf("could not size the pty to %d×%d: %v", rows, cols, err))
	}
	if err := rawOutput(slave); err != nil {
		notes = append(notes, fmt.Sprintf("pty output stays cooked (\\n becomes \\r\\n): %v", err))
	}
	if p, err := readEnd(master); err == nil && p != master {
		owned.remove(master)
		master = p
		owned.add(master)
	}
	return master, slave, notes, nil
}
