// Package jobs is jobdeck's core: the jobs table, the ring of each job's
// output, the line splitter, state changes and event fan-out, and reports.
// It is the only owner of job state; the terminal UI and the MCP server ask
// it through the methods of Table.
//
// Guarantees:
//
//   - Job IDs are 0, 1, 2 … in start order and never reused while the
//     process lives. A selector is an ID or a case-insensitive name;
//     Resolve turns it into an ID once, and every other call takes the ID,
//     so a name cannot come to mean another job between two calls.
//   - Every input is checked once, here, with model's check functions
//     (command, name, directory, environment, grace, lines, wait, since,
//     patterns); a refusal is a *model.InputError that names the field.
//   - Reports are structure (model.Report): snapshot, lines, wait outcome,
//     the supervisor's fallback notes, how the lines were selected (a
//     range, grep matches with context, the newest or oldest, a byte
//     budget with middle cuts). A read copies only what it returns: grep
//     and until look at the ring in place, a chunk of lines per hold of its
//     lock, so a writer waits at most one chunk. The core has no words for any
//     surface; the console and the MCP server make their own.
//   - At most MaxRunning (8) jobs are live at once; a live job is one with
//     any process left, including processes a finished leader left behind.
//   - Each job's output is kept in a ring of its last 2000 lines, within a
//     byte budget; every line has a seq (1, 2, 3 …, never reused). Readers
//     pull by cursor and are told how many lines were evicted before they
//     read them; there are no duplicates and no silent gaps.
//   - A few ingest loops of the Table (Linux, epoll) read every job's ptys
//     and pipes, each ready stream up to 64 KiB a round, and yield the
//     processor every 250 µs; elsewhere a goroutine per
//     stream reads it. Neither blocks on anything but the streams (and a
//     ring's lock, a chunk at a time): not on the ring's consumers, not on
//     the screen, not on subscribers.
//   - Events fan out to subscribers without blocking: state changes are
//     never lost; output activity is coalesced to one pending event per job.
//   - Every live job's listening TCP ports are in its snapshot (Ports),
//     found by one goroutine of the Table (package ports) at most once a
//     second and only while some job is live, never on a caller's
//     goroutine; a change is a state event. A line saying a port is
//     already in use gets the port's holder looked up (PortConflict) when
//     that goroutine or a report reads it: the readers never look at text.
//   - Every job ends with the Table: Close stops every tree and returns when
//     they are empty (bounded by its context).
//
// It never writes to the terminal, never logs, and never signals a stored
// pid: processes are reached only through package supervisor.
package jobs
