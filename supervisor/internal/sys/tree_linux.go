package sys

import (
	"bytes"
	"os"
	"strconv"
	"sync"
)

// Children lists the children of every thread of pid, from
// /proc/<pid>/task/<tid>/children (proc(5); needs CONFIG_PROC_CHILDREN).
// The list can miss a child that is being created or re-parented at that
// moment, which is why stops sweep more than once.
func Children(pid int) []int {
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

// HasChildrenFiles reports whether this kernel has
// /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN).
var HasChildrenFiles = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/thread-self/children")
	return err == nil
})

// ChildLister returns a function listing the children of a pid: from the
// children files, or, where the kernel has none, from one scan of every
// /proc/<pid>/stat (by ppid) made now.
func ChildLister(useFiles bool) func(int) []int {
	if useFiles {
		return Children
	}
	byParent := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := ReadStat(pid); err == nil {
			byParent[st.PPid] = append(byParent[st.PPid], pid)
		}
	}
	return func(pid int) []int { return byParent[pid] }
}

// Walk lists the descendants of root (not root itself), parents before
// their children, zombies included. It only reads /proc: a pid it lists
// may be gone or reused by the time anything acts on it.
func Walk(root int) []Stat { return WalkWith(root, ChildLister(HasChildrenFiles())) }

// WalkWith is Walk with the children of each pid listed by childrenOf.
func WalkWith(root int, childrenOf func(int) []int) []Stat {
	var out []Stat
	seen := map[int]bool{root: true}
	queue := childrenOf(root)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		st, err := ReadStat(pid)
		if err != nil {
			continue // gone meanwhile
		}
		out = append(out, st)
		queue = append(queue, childrenOf(pid)...)
	}
	return out
}
