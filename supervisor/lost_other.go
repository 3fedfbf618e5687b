//go:build unix && !linux

package supervisor

import "runtime"

// cleanupLost cannot look for leftovers here (no /proc to read other
// processes' environments, no cgroups); it says so.
func cleanupLost(string, int, string) string {
	return "cannot look for what it left behind on " + runtime.GOOS + " (no /proc, no cgroups): processes of the job may still run"
}

// guessCgroup finds none here: there are no cgroups.
func guessCgroup(string, int) string { return "" }
