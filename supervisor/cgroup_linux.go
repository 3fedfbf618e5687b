package supervisor

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// jobCgroup is a job's own cgroup v2 directory, opened for
// CLONE_INTO_CGROUP (clone3(2)).
type jobCgroup struct {
	dir string
	fd  int // O_PATH|O_DIRECTORY; -1 once closed
}

// cgroup2Mount finds where the cgroup v2 hierarchy is mounted, from
// /proc/self/mountinfo (proc(5)): the first line whose filesystem type
// (first field after " - ") is cgroup2. It returns the mount point and the
// mount's root within the hierarchy (field 4). Here it is
// /sys/fs/cgroup/unified (hybrid layout); on systemd hosts /sys/fs/cgroup.
func cgroup2Mount() (mountPoint, root string, err error) {
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

// cgroupPath is where a job's cgroup goes: under this process's own cgroup
// v2, named cgroupName(session, job).
func cgroupPath(session string, job int) (string, error) {
	mnt, root, err := cgroup2Mount()
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
	return filepath.Join(mnt, own, cgroupName(session, job)), nil
}

// guessCgroup is the cgroup a supervisor started by this process would have
// made for the job (jobdeck and its supervisors share a cgroup), or "" when
// there is none. Used to clean up after a supervisor that died before it
// reported its cgroup.
func guessCgroup(session string, job int) string {
	dir, err := cgroupPath(session, job)
	if err != nil {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		return ""
	}
	return dir
}

// makeCgroup creates the job's cgroup and opens it. Any failure means "no
// cgroup" (the subreaper walk alone stops the tree); the error says why.
func makeCgroup(session string, job int) (*jobCgroup, error) {
	dir, err := cgroupPath(session, job)
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	// cgroup.kill needs Linux >= 5.14 (cgroup-v2.rst).
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		_ = os.Remove(dir)
		return nil, fmt.Errorf("%s has no cgroup.kill (Linux < 5.14?)", dir)
	}
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = os.Remove(dir)
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	return &jobCgroup{dir: dir, fd: fd}, nil
}

// kill writes "1" to cgroup.kill: SIGKILL to every process in the cgroup,
// wherever it went in the process tree.
func (c *jobCgroup) kill() error {
	return killCgroup(c.dir)
}

func killCgroup(dir string) error {
	return os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
}

// closeFD closes the O_PATH descriptor (after the leader started).
func (c *jobCgroup) closeFD() {
	if c.fd >= 0 {
		unix.Close(c.fd)
		c.fd = -1
	}
}

// remove closes the descriptor and removes the directory, retrying for up
// to wait while the kernel still counts exiting processes in it (EBUSY).
func (c *jobCgroup) remove(wait time.Duration) error {
	c.closeFD()
	return removeCgroup(c.dir, wait)
}

func removeCgroup(dir string, wait time.Duration) error {
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

// cgroupPopulated reads the "populated" key of cgroup.events.
func cgroupPopulated(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.events"))
	if err != nil {
		return false
	}
	return bytes.Contains(b, []byte("populated 1"))
}
