package process

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// nprocReserve is how many processes and threads of the user's
// RLIMIT_NPROC a job leaves to jobdeck and its supervisors (half the limit
// when that is below 2 × nprocReserve).
const nprocReserve = 64

// procLimit is what bounds the number of a job's processes.
type procLimit struct {
	// nproc is the job's soft RLIMIT_NPROC (the wrapper sets it); zero
	// when the limit does not apply (unlimited, or the user is root or
	// holds CAP_SYS_RESOURCE/CAP_SYS_ADMIN, which the kernel exempts).
	nproc uint64
	own   uint64 // the supervisor's (jobdeck's) soft limit, with nproc
	uid   int    // whose processes count (the real uid)
	// pids is the job's cgroup's pids.max; zero without one.
	pids uint64
}

// newProcLimit works out the job's RLIMIT_NPROC: nprocReserve below
// jobdeck's own soft limit (getrlimit(2); the supervisor inherited it),
// where that limit is finite and binds this user.
func newProcLimit() procLimit {
	l := procLimit{uid: os.Getuid()}
	var r unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NPROC, &r) != nil || r.Cur == unix.RLIM_INFINITY || !nprocBinds() {
		return l
	}
	l.own, l.nproc = r.Cur, jobNproc(r.Cur)
	return l
}

// jobNproc is the job's soft RLIMIT_NPROC under jobdeck's soft limit own:
// nprocReserve less, or half of own when that is below 2 × nprocReserve.
func jobNproc(own uint64) uint64 {
	if own < 2*nprocReserve {
		return own - own/2
	}
	return own - nprocReserve
}

// nprocBinds reports whether RLIMIT_NPROC applies to this process: the
// kernel does not enforce it for the real uid 0 nor for a holder of
// CAP_SYS_RESOURCE or CAP_SYS_ADMIN (copy_process in kernel/fork.c).
func nprocBinds() bool {
	if os.Getuid() == 0 {
		return false
	}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return true
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
			caps, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			const sysAdmin, sysResource = 21, 24 // capabilities(7)
			return err != nil || caps&(1<<sysAdmin|1<<sysResource) == 0
		}
	}
	return true
}

// setPidsMax writes pids.max of the job's cgroup when the pids controller
// is enabled there (its parent's cgroup.subtree_control lists pids;
// jobdeck never enables controllers itself): the job's RLIMIT_NPROC when
// there is one, else half of the kernel's pid and thread limits, so that a
// fork bomb cannot take all pids, whatever the user. It returns the value
// written, or zero.
func (c *jobCgroup) setPidsMax(l procLimit) uint64 {
	file := filepath.Join(c.dir, "pids.max")
	if _, err := os.Stat(file); err != nil {
		return 0
	}
	n := l.nproc
	if n == 0 {
		n = min(readUintFile("/proc/sys/kernel/pid_max"), readUintFile("/proc/sys/kernel/threads-max")) / 2
	}
	if n == 0 || os.WriteFile(file, []byte(strconv.FormatUint(n, 10)), 0) != nil {
		return 0
	}
	return n
}

// readUintFile reads a file holding one number; 0 when it cannot.
func readUintFile(path string) uint64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, _ := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return n
}

// reached checks whether the job is at its process limit and, if so,
// says so. With a pids controller it reads pids.events ("max": forks the
// cgroup refused), exact and cheap. Otherwise it counts the user's
// processes and threads (a scan of /proc/*/status) against the job's
// RLIMIT_NPROC: at or above it, every fork in the job fails. A job pressing
// on the limit hovers just below it (each process that exits lets one fork
// through), so a count within nprocSlack of the limit counts as reaching
// it. That is a sample taken when a stop begins (force) and, at most every
// limitEvery, while the tree holds at least half the limit's worth of
// processes: a job that touched the limit only between samples goes
// unreported.
func (l procLimit) reached(cgroup string, tree int, force bool) string {
	if l.pids > 0 && cgroup != "" {
		if n := pidsEventsMax(cgroup); n > 0 {
			return fmt.Sprintf("the job hit its process limit: its cgroup's pids.max (%d) refused %d forks", l.pids, n)
		}
	}
	if l.nproc == 0 || (!force && uint64(tree) < l.nproc/2) {
		return ""
	}
	n := userTasks(l.uid)
	// A scan of /proc misses tasks that come and go while it runs, most
	// of all on a loaded machine; when a stop begins with the count near
	// the limit (within 1/8), a few samples close together give the best.
	near := n >= l.nproc-l.nproc/8
	for i := 1; force && near && i < forceSamples && n+nprocSlack(l.nproc) < l.nproc; i++ {
		time.Sleep(forceSampleGap)
		n = max(n, userTasks(l.uid))
	}
	if n+nprocSlack(l.nproc) >= l.nproc {
		return fmt.Sprintf("the job hit its process limit: uid %d had %d processes and threads against the job's RLIMIT_NPROC of %d (jobdeck's %d less a reserve for jobdeck), so forks in the job failed", l.uid, n, l.nproc, l.own)
	}
	return ""
}

// nprocSlack is how far below the limit n a count still reaches it:
// 1/32 of it, at least 2. A job pressing on its limit was seen from here
// 4 below it (136) on a loaded machine, its forks failing meanwhile.
func nprocSlack(n uint64) uint64 { return max(2, n/32) }

// forceSamples and forceSampleGap: when a stop begins, the user's tasks
// are counted up to forceSamples times, forceSampleGap apart, until one
// count reaches the limit.
const (
	forceSamples   = 4
	forceSampleGap = 10 * time.Millisecond
)

// pidsEventsMax reads the "max" count of the cgroup's pids.events.
func pidsEventsMax(dir string) uint64 {
	b, err := os.ReadFile(filepath.Join(dir, "pids.events"))
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("max ")); ok {
			n, _ := strconv.ParseUint(string(bytes.TrimSpace(v)), 10, 64)
			return n
		}
	}
	return 0
}

// userTasks counts the threads of every process whose real uid is uid:
// what RLIMIT_NPROC compares with its limit (the kernel counts tasks per
// user).
func userTasks(uid int) uint64 {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	want := strconv.Itoa(uid)
	var n uint64
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		var mine bool
		var threads uint64
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Uid:"); ok {
				f := strings.Fields(v)
				mine = len(f) > 0 && f[0] == want
			} else if v, ok := strings.CutPrefix(line, "Threads:"); ok {
				threads, _ = strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			}
		}
		if mine {
			n += threads
		}
	}
	return n
}

// oomKills reads the "oom_kill" count of the cgroup's memory.events: the
// processes the kernel's OOM killer killed in it (0 without the memory
// controller, or when it cannot be read).
func oomKills(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "memory.events"))
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("oom_kill ")); ok {
			n, _ := strconv.Atoi(string(bytes.TrimSpace(v)))
			return n
		}
	}
	return 0
}
