// Package process is the supervisor process itself: the small process,
// one per job, that starts the job's leader and owns its tree until the
// tree is empty. jobdeck starts it (package supervisor: the same binary
// with the hidden argument wire.Arg, whose main calls Main) in a process
// group of its own, with stdout and stderr on /dev/null, the control pipe
// on stdin, the event pipe on fd 3 and the job's stdout and stderr on
// fds 4 and 5; the messages are package wire's. Its place among the
// processes: ARCHITECTURE.md §2.
//
// Its guarantees:
//
//   - It is the only process that waits for the tree: a child subreaper
//     that peeks with waitid(WNOWAIT) and reaps exactly that pid
//     (reaper_linux.go); the leader's status is the job's exit status.
//   - The leader (bash running the wrapper, wrapper_unix.go) runs in a
//     new session, with SIGKILL as its parent-death signal, in a cgroup v2
//     of its own where one is writable, under a process limit below
//     jobdeck's (limit_linux.go), so that a fork bomb fails inside the
//     job.
//   - EOF on the control pipe, or SIGTERM/SIGINT/SIGHUP to it, means
//     jobdeck is gone: it stops the tree with the start grace and exits.
//   - Events are written from a goroutine of their own (emitter.go), so a
//     stop goes on when jobdeck stalls; their order is package
//     supervisor's.
//   - A stop (stop_unix.go) opens the tree first (descendants as verified
//     pidfds: target_linux.go), sends SIGTERM once to each process of it
//     and to the leader's group, then after the grace SIGKILL to all of it
//     and cgroup.kill, until the tree is empty; zero grace skips SIGTERM.
//     It signals only through pidfds it verified, its own unreaped
//     children, or the leader's group while the leader is unreaped.
//   - The command text is in no argv: it reaches bash through the
//     environment, or a file in the job's private directory past 128 KiB,
//     and bash unsets it first. One simple command (simple.go) is exec'd,
//     so its signal death is its own; anything else shows one as 128+n.
//   - It removes the job's private directory and cgroup when the tree is
//     empty or the start failed.
//
// What is said here is Linux (_linux files); on the other Unixes (_other)
// a stop reaches only the leader's process group while the leader runs,
// and remaining counts are 0.
package process
