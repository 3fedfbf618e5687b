//go:build unix && !linux

package supervisor

import (
	"fmt"
	"runtime"
)

// AdoptOrphans cannot work here: there is no PR_SET_CHILD_SUBREAPER. It
// returns an error that says so; processes a dead supervisor leaves behind
// go to init.
func AdoptOrphans() error {
	return fmt.Errorf("no child subreaper on %s: processes that a dead supervisor leaves behind go to init", runtime.GOOS)
}
