// Package process is the supervisor process itself: the small process,
// one per job, that starts the job's leader and owns its tree until the
// tree is empty. jobdeck starts it (package supervisor: the same binary
// with the hidden argument wire.Arg, whose main calls Main) in a process
// group of its own, with stdout and stderr on /dev/null, the control pipe
// on stdin, the event pipe on fd 3 and the job's stdout and stderr on
// fds 4 and 5; the messages are package wire's.
//
// The supervisor marks itself a child subreaper (PR_SET_CHILD_SUBREAPER)
// so that every orphan of the tree comes back to it, and it is the only
// process that calls wait4 for the tree (reaper_linux.go): it peeks with
// waitid(WNOWAIT) and reaps exactly that pid, and the leader's status is
// the job's exit status. It starts the leader, bash running the wrapper
// (wrapper_unix.go), in a new session (stdout on a pty or a pipe, stderr
// on a pipe, stdin /dev/null), with SIGKILL as its parent-death signal,
// inside a cgroup v2 of its own where one is writable (CLONE_INTO_CGROUP;
// found through /proc/self/mountinfo). EOF on the control pipe, or
// SIGTERM/SIGINT/SIGHUP to the supervisor, means jobdeck is gone: the
// supervisor stops the tree the normal way (with the start grace) and
// exits. Output never passes through it.
//
// Events, in order: "exit" once, when the leader exits (with how many
// other processes still run); "remaining" whenever that number changes
// after the leader exited or while a stop runs (a last one with 0 precedes
// "empty" when a non-zero number was reported); "signalled" for each step
// of a stop; "limit" at most once, when the job was seen at its process
// limit; "oom" at most once, before "empty", when the job's cgroup's
// memory.events counted OOM kills; and last "empty". The event pipe is written from a goroutine of
// its own (emitter.go), so a stop goes on when jobdeck stalls.
//
// Process limit: the wrapper lowers its soft RLIMIT_NPROC to 64 below
// jobdeck's (half of it below 128), where that limit is finite and binds
// the user, and the job's cgroup gets pids.max where it has the pids
// controller, so that a fork bomb fails inside the job and leaves jobdeck
// and the supervisors the threads they need (limit_linux.go).
//
// Stopping (ARCHITECTURE.md §2, stop_unix.go): the tree is opened first
// (every descendant found by walking /proc/<pid>/task/*/children, opened as
// a pidfd and re-checked as a descendant: target_linux.go), then SIGTERM
// goes to the leader's process group (pidfd_send_signal with
// PIDFD_SIGNAL_PROCESS_GROUP, or kill(-pgid) while the leader is unreaped)
// and to every descendant outside that group; a second sweep 5 ms later
// catches children that were being created; then SIGCONT to the same
// processes. Each process gets SIGTERM at most once; processes orphaned
// during the grace get it too, fresh children of live processes do not
// (they may be the job's own shutdown helpers). After the grace: SIGKILL to
// every descendant, the group and the cgroup (cgroup.kill), every 20 ms
// until wait4 reports ECHILD. A stop completes when the tree is empty, not
// when the leader exits; zero grace skips SIGTERM.
//
// The command text is never in any argv (so `pkill -f` inside a job hits
// neither jobdeck nor the supervisor): it reaches bash through the
// environment, or through a file in the job's private directory when it is
// longer than one environment string may be (MAX_ARG_STRLEN, 128 KiB), and
// bash runs it after unsetting the variable. One simple command
// (simple.go) that names a program is exec'd by the wrapper, so the leader
// is the command itself and its signal death is its own ("killed by
// SIGSEGV"); anything else runs in a command substitution of the wrapper,
// where bash adds no note of its own to the job's output, and a signal
// death shows as the shell's 128+n (wrapper_unix.go says why and what it
// costs).
//
// The supervisor signals only through pidfds it verified, its own unreaped
// children, or the leader's group while the leader is unreaped. It removes
// the job's private directory and cgroup when the tree is empty or the
// start failed.
//
// Platforms (the suffixes as in package supervisor's doc): everything
// above is Linux (_linux). On the other Unixes (_other) there is no
// subreaper, pidfd, /proc or cgroup: a stop reaches only the leader's
// process group while the leader runs, and remaining counts are 0.
package process
