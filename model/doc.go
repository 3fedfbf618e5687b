// Package model holds jobdeck's shared vocabulary as plain types: job IDs,
// specs, states, exit statuses, output lines, snapshots, reports and events.
//
// It also holds every bound of what the core takes, once, as constants and
// plain check functions (bounds.go) whose refusals are *InputError, and
// the stable codes of the sentinel errors (ErrorCode, CodeError), so that
// errors can cross a wire.
//
// It is imported by every other package of jobdeck and imports only the
// standard library. It owns no state and starts no goroutines; the jobs core
// (package jobs) is the only producer of these values, and the terminal UI and
// the MCP server only read them.
//
// Words follow ARCHITECTURE.md §1: a job is one command with its whole process tree;
// the leader is the bash process it starts as; the ring holds its last lines;
// a seq numbers a line within its job (1, 2, 3 …, never reused) and is the
// cursor for incremental reads; the stream is "out" (stdout) or "err"
// (stderr).
package model
