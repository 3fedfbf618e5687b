//go:build unix && !linux

package sys

// SetProcessName does nothing here: processes keep the name of their
// executable.
func SetProcessName(name string) {}
