//go:build unix

package supervisor

import "golang.org/x/sys/unix"

// procKey identifies one process across pid reuse: its pid and its start
// time (field 22 of /proc/<pid>/stat, clock ticks since boot). The start
// time has 10 ms granularity, so it is never used alone, only next to a
// pidfd or a pid the supervisor has not reaped.
type procKey struct {
	pid   int
	start uint64
}

// procStat is the part of /proc/<pid>/stat the supervisor uses (proc(5)).
type procStat struct {
	pid, ppid, pgid int
	sid             int  // session ID (field 6)
	state           byte // R, S, D, T, t, Z, X, …
	start           uint64
}

func (p procStat) key() procKey { return procKey{p.pid, p.start} }

// zombie reports a process that has exited and waits to be reaped: it
// cannot be signalled in any useful way and does not count as running.
func (p procStat) zombie() bool { return p.state == 'Z' || p.state == 'X' }

// target is a descendant opened as a pidfd and verified: it stays safe to
// signal through fd until fd is closed, whatever happens to its pid.
type target struct {
	procStat
	fd int
}

func closeTargets(ts []target) {
	for _, t := range ts {
		unix.Close(t.fd)
	}
}
