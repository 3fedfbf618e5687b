// Package words makes the sentences that both edges show, the console
// (ui/present) and the agent (serve), from the core's structure: a
// signal jobdeck did not send, a job's listening sockets, a port it could
// not bind and who holds it, a stop and who asked for it. Each is made
// here once, so the two faces never word one fact two ways; an edge adds
// only what is its own (the agent's next call, the console's keys).
//
// Every function is pure: no IO, no state, no styling. What a job or a
// user named (a command, a job's name, a client's name) is made plain
// here (jobs/sanitize) and put on one line. The package imports model
// and jobs/sanitize only (deps_test.go; ARCHITECTURE.md §3); simpler
// words both edges share (Count, ByteSize, a header, a stop's
// description) are model's.
package words
