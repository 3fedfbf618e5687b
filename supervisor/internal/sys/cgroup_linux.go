package sys

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// Cgroup2Mount finds where the cgroup v2 hierarchy is mounted, from
// /proc/self/mountinfo (proc(5)): the first line whose filesystem type
// (first field after " - ") is cgroup2. It returns the mount point and the
// mount's root within the hierarchy (field 4). Here it is
// /sys/fs/cgroup/unified (hybrid layout); on systemd hosts /sys/fs/cgroup.
func Cgroup2Mount() (mountPoint, root string, err error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		pf, qf := strings.Fields(pre), strings.Fields(post)
		if len(pf) < 5 || len(qf) < 1 || qf[0] != "cgroup2" {
			continue
		}
		return unescapeMountinfo(pf[4]), unescapeMountinfo(pf[3]), nil
	}
	if err := sc.Err(); err != nil {
		return "", "", err
	}
	return "", "", errors.New("no cgroup2 filesystem is mounted")
}

// unescapeMountinfo undoes the octal escapes (\040 for a space, …) of
// mountinfo fields.
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ownCgroup is this process's cgroup v2 path ("0::/path" in
// /proc/self/cgroup, cgroups(7)).
func ownCgroup() (string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if p, ok := bytes.CutPrefix(line, []byte("0::")); ok {
			return string(p), nil
		}
	}
	return "", errors.New("this process is in no cgroup v2")
}

// CgroupPath is where a job's cgroup goes: under this process's own cgroup
// v2, named wire.CgroupName(session, job). It fails where there is
// no cgroup v2 hierarchy, or this process is in none.
func CgroupPath(session string, job int) (string, error) {
	mnt, root, err := Cgroup2Mount()
	if err != nil {
		return "", err
	}
	own, err := ownCgroup()
	if err != nil {
		return "", err
	}
	// The mount may show a subtree (containers): make own relative to it.
	if root != "/" {
		if rel, ok := strings.CutPrefix(own, root); ok && (rel == "" || rel[0] == '/') {
			own = rel
		}
	}
	return filepath.Join(mnt, own, wire.CgroupName(session, job)), nil
}

// KillCgroup writes "1" to the cgroup.kill of the cgroup v2 directory dir
// (Linux >= 5.14): SIGKILL to every process in it, wherever it went in the
// process tree.
func KillCgroup(dir string) error {
	return os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
}

// RemoveCgroup removes the cgroup v2 directory dir, retrying for up to wait
// while the kernel still counts exiting processes in it (EBUSY). A
// directory that is gone already counts as removed.
func RemoveCgroup(dir string, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		err := os.Remove(dir)
		if err == nil || errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// CgroupPopulated reports the "populated" key of dir's cgroup.events: some
// process is in the cgroup or below it.
func CgroupPopulated(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.events"))
	if err != nil {
		return false
	}
	return bytes.Contains(b, []byte("populated 1"))
}
