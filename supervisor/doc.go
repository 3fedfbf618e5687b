// Package supervisor is the operating-system side of one job: it starts the
// per-job supervisor process, and it is that process.
//
// jobdeck runs one supervisor per job: the same binary, started with the
// hidden argument Arg, in its own process group (so terminal signals never
// reach it), with stdout and stderr on /dev/null (it never writes to
// jobdeck's terminal). The supervisor marks itself a child subreaper
// (PR_SET_CHILD_SUBREAPER) so that every orphan of the tree comes back to
// it, and it is the only process that calls wait4 for the tree. It starts
// the job's leader, bash, in a new session (stdout on a pty or a pipe,
// stderr on a pipe, stdin /dev/null), inside a cgroup v2 of its own where
// one is writable (CLONE_INTO_CGROUP; found through /proc/self/mountinfo).
// It takes orders on its stdin (the control pipe) and reports events as
// JSON lines on fd 3 (the event pipe); protocol.go has the wire format.
// EOF on the control pipe, or SIGTERM/SIGINT/SIGHUP to the supervisor,
// means jobdeck is gone: the supervisor stops the tree the normal way
// (with Config.Grace) and exits.
//
// Output never passes through the supervisor: jobdeck reads the pty master
// and the pipes itself, and they reach EOF (EIO for a pty) once no process
// of the tree holds them.
//
// Events, in order: EventExit once, when the leader exits (with how many
// other processes still run); EventRemaining whenever that number changes
// after the leader exited or while a stop runs (a last one with 0 precedes
// EventEmpty when a non-zero number was reported); EventSignalled for each
// step of a stop; EventLimit at most once, when the job was seen at its
// process limit; and last either EventEmpty (the tree is empty) or
// EventLost (the supervisor died; jobdeck then killed the job's cgroup,
// every process carrying its environment markers and, where it adopts
// orphans, what of the tree came back to it, and removed the job's private
// directory). The channel closes after the last event, once the supervisor
// was reaped.
//
// Process limit: the leader's wrapper lowers its soft RLIMIT_NPROC to 64
// below jobdeck's (half of it below 128), where that limit is finite and
// binds the user, and the job's cgroup gets pids.max where it has the pids
// controller, so that a fork bomb fails inside the job and leaves jobdeck
// and the supervisors the threads they need (limit_linux.go).
//
// Stopping (DESIGN §3): the tree is opened first (every descendant found by
// walking /proc/<pid>/task/*/children, opened as a pidfd and re-checked as a
// descendant), then SIGTERM goes to the leader's process group
// (pidfd_send_signal with PIDFD_SIGNAL_PROCESS_GROUP, or kill(-pgid) while
// the leader is unreaped) and to every descendant outside that group; a
// second sweep 5 ms later catches children that were being created; then
// SIGCONT to the same processes. Each process gets SIGTERM at most once;
// processes orphaned during the grace get it too, fresh children of live
// processes do not (they may be the job's own shutdown helpers). After the
// grace: SIGKILL to every descendant, the group and the cgroup
// (cgroup.kill), every 20 ms until wait4 reports ECHILD. A stop completes
// when the tree is empty, not when the leader exits; zero grace skips
// SIGTERM.
//
// The exit status comes only from wait4 of the leader. The command text is
// never in any argv (so `pkill -f` inside a job hits neither jobdeck nor
// the supervisor): it travels over the control pipe and reaches bash
// through the environment, or through a private temporary file when it is
// longer than one environment string may be (MAX_ARG_STRLEN, 128 KiB), and
// bash runs it after unsetting the variable. One simple command
// (simple.go) that names a program is exec'd by the wrapper, so the leader
// is the command itself and its signal death is its own ("killed by
// SIGSEGV"); anything else runs in a command substitution of the wrapper,
// where bash adds no note of its own to the job's output, and a signal
// death shows as the shell's 128+n (leader_unix.go says why and what it
// costs).
//
// A pty is in raw output mode (OPOST off) and, by default, not the job's
// controlling terminal: with one, the kernel sends SIGHUP to the job's
// background processes when the leader (the session leader) exits, which
// would break "the leader exited, N processes still run" (Config.Ctty).
//
// jobdeck keeps the supervisor's os.Process (pidfd-backed) and never
// signals a stored pid number. It reaps the supervisor through a pidfd of
// its own in Go's netpoller (waitid(P_PIDFD) once it is readable), so a
// running job holds no OS thread of jobdeck's: threads count against the
// user's process limit, and the Go runtime aborts when it cannot make one.
// The supervisor signals only through pidfds it verified, its own unreaped
// children, or the leader's group while the leader is unreaped. This
// package knows nothing of jobs tables, screens or MCP.
//
// The process that hosts the jobs calls HostJobs first: it ends what dead
// jobdecks left (CleanStaleCgroups, CleanStaleDirs) and makes the process
// a child subreaper that kills and reaps the orphans of supervisors that
// die (AdoptOrphans: every child in another session than its own; it
// never waits for "any child", so os/exec keeps its exit statuses).
//
// Each job has a private 0700 directory, jobdeck-job-<session>-<job>-*,
// in its TMPDIR (or the system's): the stop mark, and the command file of
// a long command. The supervisor removes it when the tree is empty or the
// start failed; jobdeck, when the supervisor dies first; the next jobdeck,
// when both died (only in the system's temporary directory).
//
// Platforms: everything above is Linux. Other Unixes build and run jobs,
// but have no subreaper, pidfds, /proc or cgroups: there a stop reaches
// only the leader's process group while the leader runs, remaining counts
// are 0, and Handle.Notes says so.
package supervisor
