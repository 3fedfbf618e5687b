package model

import (
	"net/netip"
	"strconv"
	"time"
)

// Port is one TCP socket in the LISTEN state, as the kernel lists it in
// /proc/net/tcp or /proc/net/tcp6.
type Port struct {
	// Addr is the local address the socket is bound to: 127.0.0.1, ::1,
	// or 0.0.0.0 and :: for every address of its family. An IPv6 socket
	// bound to an IPv4-mapped address shows as that IPv4 address.
	Addr netip.Addr
	// Port is the TCP port, 1–65535.
	Port int
	// PID is a process that holds the socket (the first one found, parents
	// before children, when several share it, as pre-forked workers do).
	// Informational: jobdeck never signals it. Zero when the process could
	// not be seen (it belongs to another user).
	PID int
}

// String returns the socket's address and port as a browser or curl takes
// them: "127.0.0.1:5173", "[::]:8080", or ":8080" when Addr is unset.
func (p Port) String() string {
	if !p.Addr.IsValid() {
		return ":" + strconv.Itoa(p.Port)
	}
	return netip.AddrPortFrom(p.Addr, uint16(p.Port)).String()
}

// PortHolder is a process found listening on a TCP port that a job could
// not bind.
type PortHolder struct {
	// Socket is the listening socket: its address, port and holder's pid.
	// Socket.PID is zero when the socket belongs to a process jobdeck may
	// not look at (another user's; UID says whose).
	Socket Port
	// Command is the holder's command name as the kernel keeps it
	// (/proc/<pid>/comm: "node", "python3"; at most 15 bytes). Empty when
	// PID is zero.
	Command string
	// UID is the user the socket belongs to.
	UID int
	// Job is the job of this jobs table whose tree the holder belongs to;
	// nil when it belongs to none.
	Job *JobID
	// JobName is that job's name (Spec.Name), when Job is set and the job
	// has one.
	JobName string
	// OtherSession reports that the holder is not a job of this table but
	// carries the marker of a job of another jobdeck session (its
	// JOBDECK_SESSION environment variable names another session).
	OtherSession bool
}

// PortConflict is what jobdeck found when a job's output said a port was
// already in use ("address already in use", EADDRINUSE, "Port 5173 is
// already in use"): which port, and who held it.
type PortConflict struct {
	// Port is the TCP port the job could not use: from the line that said
	// so, the lines beside it, or the job's command (the first port named
	// there that something listens on). Zero when none of them names one
	// (Python's "[Errno 98] Address already in use" names none).
	Port int
	// Seq is the seq of the output line that said so.
	Seq uint64
	// At is when jobdeck looked for the holder.
	At time.Time
	// Holder is the process that listened on Port when jobdeck looked;
	// nil when nothing did (the holder had gone already) or Port is zero.
	Holder *PortHolder
}
