//go:build unix

package supervisor

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// privatePrefix starts the name of every job's private directory:
// jobdeck-job-<session>-<job>-<random>.
const privatePrefix = "jobdeck-job-"

// privateBase is where a job's private directory goes: the job's TMPDIR
// when that is an absolute path to a directory, else os.TempDir (the
// supervisor's, which is jobdeck's: it inherits jobdeck's environment).
func privateBase(env []string) string {
	if t, ok := lookEnv(env, "TMPDIR"); ok && filepath.IsAbs(t) {
		if st, err := os.Stat(t); err == nil && st.IsDir() {
			return t
		}
	}
	return os.TempDir()
}

// privateDir makes the job's private directory (os.MkdirTemp, 0700) in
// privateBase(env): it holds the stop mark and, for a long command, the
// command file. Its name carries the session and the job, so that jobdeck
// can remove it when the supervisor dies before it could
// (removePrivateDirs), and a later jobdeck when both died (CleanStaleDirs).
func privateDir(env []string, session string, job int) (string, error) {
	return os.MkdirTemp(privateBase(env), privateName(session, job)+"-")
}

// privateName is the private directory's name without its random suffix.
// Sessions hold only [A-Za-z0-9._-] (validSession), so the name has no
// glob metacharacters.
func privateName(session string, job int) string {
	return privatePrefix + session + "-" + strconv.Itoa(job)
}

// removePrivateDirs removes the private directories of job in base
// (normally one): what a supervisor that died could not remove itself.
// Only directories owned by this process's user are removed, never what a
// symbolic link points to.
func removePrivateDirs(base, session string, job int) {
	dirs, _ := filepath.Glob(filepath.Join(base, privateName(session, job)+"-*"))
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
	rest, ok := strings.CutPrefix(name, privatePrefix)
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
