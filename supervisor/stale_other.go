//go:build unix && !linux

package supervisor

// CleanStaleCgroups does nothing here: there are no cgroups.
func CleanStaleCgroups() int { return 0 }
