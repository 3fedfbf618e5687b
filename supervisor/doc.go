// Package supervisor is jobdeck's side of one job's supervisor: starting
// the supervisor process (Start), talking to it (Handle), and cleaning up
// after one that died. The supervisor process itself is package
// supervisor/process; the messages between the two are package
// supervisor/wire. This package knows nothing of jobs tables, screens or
// MCP. Who waits, who signals and who dies with whom: ARCHITECTURE.md §2;
// the files of each part: §6.
//
// Its guarantees:
//
//   - The command travels only over the control pipe, never in an argv.
//     EOF on the control pipe (Close, or jobdeck's death) stops the tree
//     with Config.Grace.
//   - Output never passes through the supervisor: jobdeck reads the pty
//     masters and the pipes itself, to EOF (EIO for a pty) once no
//     process of the tree holds them. With Config.TTY the job has two
//     ptys, stdout's and stderr's, of one size and resized together, so
//     it sees a terminal on both while jobdeck tells the streams apart.
//     A pty is in raw output mode and, unless Config.Ctty, not the job's
//     controlling terminal (the kernel would SIGHUP the job's background
//     processes when the leader exits).
//   - Events, in order: EventExit once, when the leader exits (with how
//     many other processes still run); EventRemaining whenever that number
//     changes after it or during a stop (a last 0 before EventEmpty when a
//     non-zero number was reported); EventSignalled for each step of a
//     stop; EventLimit and EventOOM at most once each; and last either
//     EventEmpty (the tree is empty) or EventLost (the supervisor died;
//     jobdeck then killed the job's cgroup, its marked processes and its
//     adopted orphans, and removed its private directory). The channel
//     closes after the last event, once the supervisor was reaped.
//   - The exit status comes only from the supervisor's wait4 of the
//     leader. jobdeck never signals a stored pid number, and reaps the
//     supervisor through a pidfd in Go's netpoller, so a running job holds
//     no OS thread of jobdeck's.
//   - The host of the jobs calls HostJobs first: it ends what dead
//     jobdecks left (CleanStaleCgroups, CleanStaleDirs) and adopts the
//     orphans of supervisors that die (AdoptOrphans), never waiting for
//     "any child".
//   - Each job has a private 0700 directory in its TMPDIR (the stop mark,
//     a long command's file), removed by the supervisor when the tree is
//     empty, by jobdeck when the supervisor died first, by the next
//     jobdeck when both died.
//
// Platform files follow the suffix rule of ARCHITECTURE.md §3. What is
// said here is Linux; the other Unixes run jobs without subreaper, pidfds,
// /proc or cgroups (a stop reaches the leader's process group only,
// remaining counts are 0, and Handle.Notes says so).
package supervisor
