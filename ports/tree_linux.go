package ports

import (
	"bytes"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// childrenFiles reports whether this kernel has
// /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN, proc(5)).
var childrenFiles = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/thread-self/children")
	return err == nil
})

// children appends to out the children of every thread of pid, from
// /proc/<pid>/task/<tid>/children. A child being created or re-parented
// at that moment may be missed; the next scan sees it.
func (p *procfs) children(pid int, tids []int, out []int) ([]int, []int) {
	taskfd, err := openDir(pidPath(pid, "task"))
	if err != nil {
		return tids, out
	}
	defer unix.Close(taskfd)
	tids, _ = p.numbers(taskfd, tids[:0])
	for _, tid := range tids {
		b, err := p.read(taskfd, strconv.Itoa(tid)+"/children")
		if err != nil {
			continue
		}
		out = appendFields(b, out)
	}
	return tids, out
}

// appendFields appends the decimal numbers of a space-separated list.
func appendFields(b []byte, out []int) []int {
	for len(b) > 0 {
		i := bytes.IndexByte(b, ' ')
		if i < 0 {
			i = len(b)
		}
		if v, ok := atoi(bytes.TrimSpace(b[:i])); ok {
			out = append(out, v)
		}
		b = b[min(i+1, len(b)):]
	}
	return out
}

// stat is what Ancestors and the tree walk need of /proc/<pid>/stat.
type stat struct {
	ppid   int
	zombie bool
}

// readStat parses /proc/<pid>/stat. The command name (field 2) may hold
// spaces and parentheses, so fields are counted after the last ')'.
func (p *procfs) readStat(pid int) (stat, bool) {
	b, err := p.read(unix.AT_FDCWD, pidPath(pid, "stat"))
	if err != nil {
		return stat{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return stat{}, false
	}
	f := bytes.Fields(b[i+2:]) // f[0] is field 3 (state), f[1] field 4 (ppid)
	if len(f) < 2 || len(f[0]) != 1 {
		return stat{}, false
	}
	ppid, ok := atoi(f[1])
	if !ok {
		return stat{}, false
	}
	return stat{ppid: ppid, zombie: f[0][0] == 'Z' || f[0][0] == 'X'}, true
}

// byParent maps every process to its children, from one pass over
// /proc/<pid>/stat: the way to walk trees where the kernel has no
// children files.
func (p *procfs) byParent() map[int][]int {
	m := map[int][]int{}
	for _, pid := range p.allPids(nil) {
		if st, ok := p.readStat(pid); ok {
			m[st.ppid] = append(m[st.ppid], pid)
		}
	}
	return m
}

// allPids appends every process of /proc to out.
func (p *procfs) allPids(out []int) []int {
	fd, err := openDir("/proc")
	if err != nil {
		return out
	}
	defer unix.Close(fd)
	out, _ = p.numbers(fd, out)
	return out
}

// walker lists the processes of trees; it reuses its buffers.
type walker struct {
	fs    *procfs
	seen  map[int]bool
	queue []int
	tids  []int
	kids  []int
	// byStat walks by /proc/<pid>/stat: parents is then one map per
	// scan, built on first use.
	byStat  bool
	parents map[int][]int
}

// tree appends root and its descendants (parents before children) to out,
// leaving out any already listed by an earlier call of the same scan.
// Zombies are kept: they hold no files, and their children still count.
func (w *walker) tree(root int, out []int) []int {
	if w.seen[root] {
		return out
	}
	w.queue = append(w.queue[:0], root)
	w.seen[root] = true
	for len(w.queue) > 0 {
		pid := w.queue[0]
		w.queue = w.queue[1:]
		out = append(out, pid)
		if !w.byStat {
			w.tids, w.kids = w.fs.children(pid, w.tids, w.kids[:0])
		} else {
			if w.parents == nil {
				w.parents = w.fs.byParent()
			}
			w.kids = append(w.kids[:0], w.parents[pid]...)
		}
		for _, c := range w.kids {
			if !w.seen[c] {
				w.seen[c] = true
				w.queue = append(w.queue, c)
			}
		}
	}
	return out
}
