//go:build !unix

package supervisor

import "time"

// Start cannot run jobs on this operating system: it always returns a
// *StartError wrapping ErrUnsupported.
func Start(cfg Config) (*Handle, error) {
	if _, err := normalize(cfg); err != nil {
		return nil, err
	}
	return nil, startErr(ErrUnsupported, "jobdeck runs jobs on Linux and other Unix systems only")
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

// CleanStaleDirs does nothing here: no job ever made a directory.
func CleanStaleDirs() int { return 0 }

// exitWaiter has nothing to wait for here.
type exitWaiter struct{}
