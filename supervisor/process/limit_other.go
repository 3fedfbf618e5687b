//go:build unix && !linux

package process

// procLimit is what bounds the number of a job's processes: nothing here
// (no pids controller, and no /proc to see a limit reached).
type procLimit struct{ nproc, pids uint64 }

func newProcLimit() procLimit { return procLimit{} }

func (c *jobCgroup) setPidsMax(procLimit) uint64 { return 0 }

func (l procLimit) reached(string, int, bool) string { return "" }

// oomKills is 0: no cgroups here.
func oomKills(string) int { return 0 }
