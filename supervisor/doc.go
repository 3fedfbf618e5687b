// Package supervisor is jobdeck's side of one job's supervisor: starting
// the supervisor process (Start), talking to it (Handle), and cleaning up
// after one that died. The supervisor process itself is package
// supervisor/process; the messages between the two are package
// supervisor/wire. This package knows nothing of jobs tables, screens or
// MCP.
//
//	supervisor/           jobdeck's side, in the process that hosts the jobs core
//	  start_unix.go       Start: pipes, pty, the supervisor process, the start handshake
//	  handle*.go          Handle: output, Stop, Close, Resize
//	  events_unix.go      the event pipe read into Handle.Events; EventLost
//	  wait_linux.go       reaping a supervisor through its pidfd
//	  lost_linux.go       what a dead supervisor left: cgroup, marked processes
//	  adopt_linux.go      AdoptOrphans: the host's own subreaper
//	  stale_linux.go      CleanStaleCgroups; privdir_unix.go: CleanStaleDirs
//	supervisor/process/   the supervisor process: Main, the wrapper, the reaper,
//	                      the stop sequence, the verified tree, cgroups, limits
//	supervisor/wire/      the protocol and the names both sides derive
//	supervisor/internal/sys/  what both sides read of the OS: /proc, cgroup v2
//	                      directories, waitid's result, fd and signal hygiene
//
// jobdeck runs one supervisor per job: the same binary, started with the
// hidden argument Arg (main calls Main), in its own process group (so
// terminal signals never reach it), with stdout and stderr on /dev/null
// (it never writes to jobdeck's terminal), the control pipe on its stdin,
// the event pipe on fd 3 and the job's stdout and stderr on fds 4 and 5.
// The command travels only over the control pipe. The supervisor starts
// the job's leader, owns its tree and is the only process that waits for
// it (see package supervisor/process for how it stops a tree). EOF on the
// control pipe (Close, or jobdeck's death) stops the tree with
// Config.Grace.
//
// Output never passes through the supervisor: jobdeck reads the pty master
// and the pipes itself, and they reach EOF (EIO for a pty) once no process
// of the tree holds them. A pty is in raw output mode (OPOST off) and, by
// default, not the job's controlling terminal: with one, the kernel sends
// SIGHUP to the job's background processes when the leader (the session
// leader) exits, which would break "the leader exited, N processes still
// run" (Config.Ctty).
//
// Events, in order: EventExit once, when the leader exits (with how many
// other processes still run); EventRemaining whenever that number changes
// after the leader exited or while a stop runs (a last one with 0 precedes
// EventEmpty when a non-zero number was reported); EventSignalled for each
// step of a stop; EventLimit at most once, when the job was seen at its
// process limit; EventOOM at most once, when the job's cgroup counted OOM
// kills; and last either EventEmpty (the tree is empty) or
// EventLost (the supervisor died; jobdeck then killed the job's cgroup,
// every process carrying its environment markers and, where it adopts
// orphans, what of the tree came back to it, and removed the job's private
// directory). The channel closes after the last event, once the supervisor
// was reaped.
//
// The exit status comes only from the supervisor's wait4 of the leader.
// jobdeck keeps the supervisor's os.Process (pidfd-backed) and never
// signals a stored pid number. It reaps the supervisor through a pidfd of
// its own in Go's netpoller (waitid(P_PIDFD) once it is readable), so a
// running job holds no OS thread of jobdeck's: threads count against the
// user's process limit, and the Go runtime aborts when it cannot make one.
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
// Platform files, in this package and below it, are named by one rule:
//
//	x_linux.go   Linux (the name is the constraint)
//	x_unix.go    //go:build unix: every Unix, Linux included
//	x_other.go   //go:build unix && !linux: the other Unixes (macOS, the
//	             BSDs), the fallback of the x_linux.go of the same name
//	unsupported.go  //go:build !unix: not a Unix; jobs cannot run
//	             (ErrUnsupported), the rest of jobdeck builds
//
// Everything the docs here describe is Linux. The other Unixes build and
// run jobs, but have no subreaper, pidfds, /proc or cgroups: there a stop
// reaches only the leader's process group while the leader runs,
// remaining counts are 0, and Handle.Notes says so. Of those, macOS and the
// BSDs are the ones jobdeck builds for (GOOS=darwin go build ./... in
// .ci/run); Solaris, illumos and AIX are not targets (the terminal
// libraries do not build there).
package supervisor
