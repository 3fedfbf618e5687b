//go:build !unix

package supervisor

import (
	"fmt"
	"runtime"
	"time"
)

// Not a Unix (Windows, Plan 9, WebAssembly): jobdeck builds, but it cannot
// run jobs. Every function here says so or does nothing; .ci/run keeps
// this build honest (GOOS=windows go vet ./...).

// Start cannot run jobs on this operating system: it always returns a
// *StartError wrapping ErrUnsupported.
func Start(cfg Config) (*Handle, error) {
	if _, err := normalize(cfg); err != nil {
		return nil, err
	}
	return nil, startErr(ErrUnsupported, "jobdeck runs jobs on Linux, macOS and the BSDs only")
}

// Stop has nothing to stop here.
func (h *Handle) Stop(time.Duration) error { return ErrUnsupported }

// Resize has no pty to size here.
func (h *Handle) Resize(int, int) error { return ErrUnsupported }

// Close has nothing to close here.
func (h *Handle) Close() error { return nil }

// Main cannot supervise here; it returns 2.
func Main() int { return 2 }

// Hygiene does nothing here.
func Hygiene() {}

// SetProcessName does nothing here.
func SetProcessName(string) {}

// AdoptOrphans cannot: there is no job whose orphans to adopt.
func AdoptOrphans() error {
	return fmt.Errorf("jobdeck runs no jobs on %s", runtime.GOOS)
}

// CleanStaleCgroups does nothing here: there are no cgroups.
func CleanStaleCgroups() int { return 0 }

// CleanStaleDirs does nothing here: no job ever made a directory.
func CleanStaleDirs() int { return 0 }

// exitWaiter has nothing to wait for here.
type exitWaiter struct{}
