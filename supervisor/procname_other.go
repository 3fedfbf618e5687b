//go:build !linux

package supervisor

// SetProcessName does nothing here: processes keep the name of their
// executable.
func SetProcessName(name string) {}
