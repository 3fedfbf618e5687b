//go:build unix

package testkit

import (
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// TasksOf lists the processes that uid owns (the owner of /proc/<pid>)
// and counts their tasks (the entries of /proc/<pid>/task): the threads
// RLIMIT_NPROC counts, for a test that runs jobdeck as a throwaway uid of
// its own. Without /proc it finds nothing.
func TasksOf(uid int) (pids []int, tasks uint64) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		st, err := os.Stat(d)
		if err != nil {
			continue
		}
		if sys, ok := st.Sys().(*syscall.Stat_t); !ok || int(sys.Uid) != uid {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		threads, _ := os.ReadDir(filepath.Join(d, "task"))
		pids = append(pids, pid)
		tasks += uint64(max(len(threads), 1))
	}
	return pids, tasks
}
