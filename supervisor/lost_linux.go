package supervisor

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
)

// cleanupLost kills what a lost supervisor left of its job: first the
// job's cgroup (cgroup.kill reaches processes that scrubbed their
// environment), then every process whose initial environment carries both
// markers EnvSession=session and EnvJob=job (each opened as a pidfd, its
// environment read again through /proc/<pid> before SIGKILL goes through
// the pidfd, so a recycled pid is never hit), then, where this process
// adopts orphans (AdoptOrphans), whatever of the tree came back to it. The
// leader itself died already (Pdeathsig). It returns what it did, for
// EventLost.
func cleanupLost(session string, job int, cgroup string) string {
	var parts []string
	if cgroup != "" {
		if err := sys.KillCgroup(cgroup); err == nil {
			parts = append(parts, "killed its cgroup")
			deadline := time.Now().Add(2 * time.Second)
			for sys.CgroupPopulated(cgroup) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			_ = sys.RemoveCgroup(cgroup, time.Second)
		} else if !os.IsNotExist(err) {
			parts = append(parts, fmt.Sprintf("could not kill its cgroup %s: %v", cgroup, err))
		}
	}
	n := killMarked(session, job)
	switch n {
	case 0:
		parts = append(parts, "found no process carrying its markers")
	case 1:
		parts = append(parts, "killed 1 process carrying its markers")
	default:
		parts = append(parts, fmt.Sprintf("killed %d processes carrying its markers", n))
	}
	// What neither found (no cgroup, environment scrubbed) came back to
	// jobdeck, if it is a subreaper (AdoptOrphans).
	if note := orphanNote(time.Now().Add(orphanSettle)); note != "" {
		parts = append(parts, note)
	}
	return strings.Join(parts, "; ")
}

// guessCgroup is the cgroup a supervisor started by this process would have
// made for the job (jobdeck and its supervisors share a cgroup), or "" when
// there is none. Used to clean up after a supervisor that died before it
// reported its cgroup.
func guessCgroup(session string, job int) string {
	dir, err := sys.CgroupPath(session, job)
	if err != nil {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		return ""
	}
	return dir
}

// killMarked SIGKILLs processes carrying both job markers, scanning again
// until a scan finds none (a process may fork while the scan runs; a killed
// one cannot). It returns how many distinct processes it killed.
func killMarked(session string, job int) int {
	wantS := []byte(EnvSession + "=" + session)
	wantJ := []byte(EnvJob + "=" + strconv.Itoa(job))
	self := os.Getpid()
	killed := map[sys.Key]bool{}
	for round := 0; round < 50; round++ {
		found := 0
		entries, err := os.ReadDir("/proc")
		if err != nil {
			break
		}
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == self || pid <= 1 {
				continue
			}
			if !hasMarkers(pid, wantS, wantJ) {
				continue
			}
			fd, err := unix.PidfdOpen(pid, 0)
			if err != nil {
				continue
			}
			// Re-check through /proc/<pid> now that the pidfd pins the
			// process: if the pid was recycled since the scan, the new
			// process fails this check; if it is recycled after it,
			// the signal below reaches nothing (ESRCH).
			st, serr := sys.ReadStat(pid)
			if serr == nil && !st.Zombie() && hasMarkers(pid, wantS, wantJ) {
				if unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) == nil {
					found++
					killed[st.Key()] = true
				}
			}
			unix.Close(fd)
		}
		if found == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return len(killed)
}

// hasMarkers reports whether /proc/<pid>/environ holds both entries.
func hasMarkers(pid int, a, b []byte) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	var hasA, hasB bool
	for _, kv := range bytes.Split(env, []byte{0}) {
		hasA = hasA || bytes.Equal(kv, a)
		hasB = hasB || bytes.Equal(kv, b)
	}
	return hasA && hasB
}
