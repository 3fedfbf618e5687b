// Package sys is the operating-system code both sides of a supervisor run
// (jobdeck's, package supervisor, and the supervisor process's, package
// supervisor/process): reading /proc (a process's stat, its children, a
// whole tree), cgroup v2 directories (where a job's goes, killing and
// removing one), waitid's child information, the hygiene of a process
// that starts jobs, process names, and where a job's private directory
// goes. It knows nothing of jobs, events or the protocol.
//
// Platform files follow the rule of ARCHITECTURE.md §3: _linux is
// Linux, _unix every Unix, _other every Unix but Linux.
package sys
