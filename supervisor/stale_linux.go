package supervisor

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
)

// CleanStaleCgroups removes the cgroups that jobs of an earlier jobdeck
// left next to this process's own when that jobdeck and the job's
// supervisor both died (a supervisor removes its job's cgroup when the tree
// is empty, and jobdeck does when a supervisor dies). A cgroup counts as
// stale when the jobdeck whose pid its name carries
// ("jobdeck-<pid>-<hex>-<job>") is no longer running. Processes still in it
// are killed (cgroup.kill) before the directory is removed, unless a live
// supervisor is their ancestor: then it is stopping them (jobdeck died a
// moment ago) and the cgroup is its to remove. A pid that
// runs again (reused) keeps its cgroups: they are left alone. It returns
// how many it removed; without a writable cgroup v2 hierarchy, none.
func CleanStaleCgroups() int {
	dir, err := sys.CgroupPath("x", 0)
	if err != nil {
		return 0
	}
	parent := filepath.Dir(dir)
	ents, err := os.ReadDir(parent)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		name, ok := strings.CutPrefix(e.Name(), "jobdeck-")
		if !e.IsDir() || !ok {
			continue
		}
		pidText, _, _ := strings.Cut(name, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat(filepath.Join("/proc", pidText)); err == nil {
			continue // that jobdeck (or a process with its pid) still runs
		}
		cg := filepath.Join(parent, e.Name())
		if sys.CgroupPopulated(cg) {
			if supervised(cg) {
				continue // its supervisor is stopping it (jobdeck died just now)
			}
			_ = sys.KillCgroup(cg)
		}
		if sys.RemoveCgroup(cg, time.Second) == nil {
			n++
		}
	}
	return n
}

// supervised reports whether the processes of cgroup dir descend from a live
// jobdeck supervisor: the nearest ancestor of one of them outside the
// cgroup has Arg as its first argument.
func supervised(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return false
	}
	in := map[int]bool{}
	var first int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			in[pid] = true
			if first == 0 {
				first = pid
			}
		}
	}
	pid := first
	for i := 0; i < 64 && pid > 1; i++ {
		st, err := sys.ReadStat(pid)
		if err != nil {
			return false
		}
		pid = st.PPid
		if in[pid] {
			continue
		}
		argv, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if err != nil {
			return false
		}
		args := strings.Split(string(argv), "\x00")
		return len(args) > 1 && args[1] == Arg
	}
	return false
}
