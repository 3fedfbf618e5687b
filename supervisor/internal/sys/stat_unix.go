//go:build unix

package sys

// Key identifies one process across pid reuse: its pid and its start time
// (field 22 of /proc/<pid>/stat, clock ticks since boot). The start time
// has 10 ms granularity, so a Key is never trusted alone, only next to a
// pidfd or a pid its parent has not reaped.
type Key struct {
	Pid   int
	Start uint64
}

// Stat is the part of /proc/<pid>/stat (proc(5)) both sides use.
type Stat struct {
	Pid, PPid, Pgid int
	Sid             int    // session ID (field 6)
	State           byte   // R, S, D, T, t, Z, X, …
	Start           uint64 // start time (field 22), clock ticks since boot
}

// Key returns the process's Key.
func (p Stat) Key() Key { return Key{p.Pid, p.Start} }

// Zombie reports a process that has exited and waits to be reaped: it
// cannot be signalled in any useful way and does not count as running.
func (p Stat) Zombie() bool { return p.State == 'Z' || p.State == 'X' }
