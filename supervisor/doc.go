// Package supervisor is the operating-system side of one job: it starts the
// per-job supervisor process, and it is that process.
//
// jobdeck runs one supervisor per job: the same binary, started with the
// hidden argument Arg, in its own process group. The supervisor marks itself
// a child subreaper (PR_SET_CHILD_SUBREAPER) so that every orphan of the tree
// comes back to it, and it is the only process that calls wait4 for the
// tree. It starts the job's leader, bash, in a new session (stdout on a pty
// or a pipe, stderr on a pipe, stdin /dev/null), inside a cgroup v2 of its
// own where one is writable. It takes orders on its stdin (the control pipe)
// and reports events as JSON lines on fd 3 (the event pipe). EOF on the
// control pipe means jobdeck is gone: the supervisor stops the tree the
// normal way and exits.
//
// Stopping (DESIGN §3): SIGTERM and SIGCONT to the leader's process group and
// to every descendant (found by walking /proc/<pid>/task/*/children, each
// one opened as a pidfd and re-checked as a descendant before it is
// signalled), each process at most once; the grace period; then SIGKILL
// (and cgroup.kill) in a loop until wait4 reports that no child is left. A
// stop completes when the tree is empty, not when the leader exits.
//
// The exit status comes only from wait4 of the leader. The command text is
// never in any argv: it travels over the control pipe and reaches bash
// through the environment (or a private temporary file when it is longer
// than one environment string may be), and bash evals it.
//
// jobdeck keeps the supervisor's os.Process (pidfd-backed) and never
// signals a stored pid number. This package knows nothing of jobs tables,
// screens or MCP.
package supervisor
