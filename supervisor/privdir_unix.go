//go:build unix

package supervisor

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// A job's private directory, wire.PrivateName(session, job) and a random
// suffix in sys.PrivateBase of its environment, holds the stop mark and,
// for a long command, the command file. The supervisor makes it and
// removes it when the tree is empty; jobdeck removes it when the
// supervisor died first (removePrivateDirs), and a later jobdeck when both
// died (CleanStaleDirs).

// removePrivateDirs removes the private directories of job in base
// (normally one): what a supervisor that died could not remove itself.
// Only directories owned by this process's user are removed, never what a
// symbolic link points to.
func removePrivateDirs(base, session string, job int) {
	dirs, _ := filepath.Glob(filepath.Join(base, wire.PrivateName(session, job)+"-*"))
	for _, d := range dirs {
		removeOwnDir(d)
	}
}

// removeOwnDir removes d and what it holds when d is a directory (not a
// link) owned by this process's effective user.
func removeOwnDir(d string) bool {
	st, err := os.Lstat(d)
	if err != nil || !st.IsDir() {
		return false
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); !ok || int(sys.Uid) != os.Geteuid() {
		return false
	}
	return os.RemoveAll(d) == nil
}

// CleanStaleDirs removes, from os.TempDir, the private directories of jobs
// whose jobdeck is no longer running: the directory's session starts with
// the pid of the jobdeck that made it (jobdeck's session is
// "<pid>-<hex>"), and that pid is not running. It is for directories that
// nobody removed because jobdeck and the supervisor died together (a
// supervisor removes its own when the tree is empty; jobdeck removes a
// lost supervisor's). A supervisor of a dead jobdeck that still stops its
// tree loses its stop mark: the leader then reports its own fate, which
// nobody reads any more. Directories in a job's own TMPDIR are not looked
// at. A pid that runs again (reused) keeps its directories. It returns how
// many it removed.
func CleanStaleDirs() int { return cleanStaleDirsIn(os.TempDir()) }

func cleanStaleDirsIn(base string) int {
	ents, err := os.ReadDir(base)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		pid, ok := privateDirPid(e.Name())
		if !ok || !e.IsDir() || pid == os.Getpid() {
			continue
		}
		// Signal 0 delivers nothing; it only asks whether the pid runs.
		if err := syscall.Kill(pid, 0); err == nil || err == syscall.EPERM {
			continue // that jobdeck (or a process with its pid) still runs
		}
		if removeOwnDir(filepath.Join(base, e.Name())) {
			n++
		}
	}
	return n
}

// privateDirPid parses jobdeck-job-<pid>-<hex>-<job>-<random> and returns
// the pid.
func privateDirPid(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, wire.PrivatePrefix)
	if !ok {
		return 0, false
	}
	pidText, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(pidText)
	return pid, err == nil && pid > 0
}
