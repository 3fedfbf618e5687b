//go:build unix && !linux

package sys

import "errors"

var errNoProc = errors.New("no /proc on this operating system")

// ReadStat has no /proc to read here: it always fails.
func ReadStat(int) (Stat, error) { return Stat{}, errNoProc }
