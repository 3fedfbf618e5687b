//go:build unix

package serve

import "golang.org/x/sys/unix"

// defaultMaxConns leaves room under RLIMIT_NOFILE for the jobs' pipes and
// ptys.
func defaultMaxConns() int {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil || lim.Cur > 1<<20 {
		return 128
	}
	return min(max((int(lim.Cur)-32)/2, 4), 128)
}
