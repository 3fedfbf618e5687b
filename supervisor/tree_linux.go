package supervisor

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// readStat parses /proc/<pid>/stat. The command name (field 2) may hold
// spaces and parentheses, so fields are counted after the last ')'.
func readStat(pid int) (procStat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return procStat{}, errors.New("malformed stat")
	}
	f := bytes.Fields(b[i+2:])
	// f[0] is field 3 (state); field n is f[n-3].
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, errors.New("malformed stat")
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgid, err2 := strconv.Atoi(string(f[2]))
	sid, err3 := strconv.Atoi(string(f[3]))
	start, err4 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return procStat{}, errors.New("malformed stat")
	}
	return procStat{pid: pid, ppid: ppid, pgid: pgid, sid: sid, state: f[0][0], start: start}, nil
}

// childrenOf lists the children of every thread of pid, from
// /proc/<pid>/task/<tid>/children (proc(5); needs CONFIG_PROC_CHILDREN).
// The list can miss a child that is being created or re-parented at that
// moment, which is why stops sweep more than once.
func childrenOf(pid int) []int {
	base := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(base)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(base + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range bytes.Fields(b) {
			if c, err := strconv.Atoi(string(f)); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// childrenFiles reports whether this kernel has
// /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN).
var childrenFiles = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/thread-self/children")
	return err == nil
})

// childLister returns a function listing the children of a pid: from the
// children files, or, where the kernel has none, from one scan of every
// /proc/<pid>/stat (by ppid) made now.
func childLister(useFiles bool) func(int) []int {
	if useFiles {
		return childrenOf
	}
	byParent := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := readStat(pid); err == nil {
			byParent[st.ppid] = append(byParent[st.ppid], pid)
		}
	}
	return func(pid int) []int { return byParent[pid] }
}

// walkTree lists the descendants of root (not root itself), parents before
// their children, zombies included. It only reads /proc; use verifiedTree
// before signalling.
func walkTree(root int) []procStat { return walkTreeWith(root, childLister(childrenFiles())) }

func walkTreeWith(root int, childrenOf func(int) []int) []procStat {
	var out []procStat
	seen := map[int]bool{root: true}
	queue := childrenOf(root)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		st, err := readStat(pid)
		if err != nil {
			continue // gone meanwhile
		}
		out = append(out, st)
		queue = append(queue, childrenOf(pid)...)
	}
	return out
}

// verifiedTree opens every descendant of root as a pidfd and keeps it only
// when, read after the pidfd was opened, its parent is root or a
// descendant verified earlier in this walk: the ppid chain still reaches
// root. A pid that was recycled between the walk and pidfd_open fails that
// check; one recycled after pidfd_open cannot be reached through the fd.
// Zombies are left out (nothing to signal). With directOnly, only root's
// own children are looked at. The caller closes the targets with
// closeTargets.
func verifiedTree(root int, directOnly bool) []target {
	childrenOf := childLister(childrenFiles())
	var out []target
	verified := map[int]bool{root: true}
	queue := childrenOf(root)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if verified[pid] {
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue // gone, or no pidfd support (then nothing can be signalled safely)
		}
		st, err := readStat(pid)
		if err != nil || !verified[st.ppid] {
			unix.Close(fd)
			continue
		}
		verified[pid] = true
		if !directOnly {
			queue = append(queue, childrenOf(pid)...)
		}
		if st.zombie() {
			unix.Close(fd)
			continue
		}
		out = append(out, target{procStat: st, fd: fd})
	}
	return out
}
