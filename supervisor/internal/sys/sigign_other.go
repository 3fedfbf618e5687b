//go:build unix && !linux

package sys

// ignoredMask has no source here (no /proc): Hygiene relies on
// signal.Ignored alone, which does not see an inherited SIG_IGN for
// SIGTSTP, SIGTTIN and SIGTTOU.
func ignoredMask() (uint64, bool) { return 0, false }
