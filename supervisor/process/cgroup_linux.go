package process

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
)

// jobCgroup is a job's own cgroup v2 directory, opened for
// CLONE_INTO_CGROUP (clone3(2)).
type jobCgroup struct {
	dir string
	fd  int // O_PATH|O_DIRECTORY; -1 once closed
}

// makeCgroup creates the job's cgroup and opens it. Any failure means "no
// cgroup" (the subreaper walk alone stops the tree); the error says why.
func makeCgroup(session string, job int) (*jobCgroup, error) {
	dir, err := sys.CgroupPath(session, job)
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
	return sys.KillCgroup(c.dir)
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
	return sys.RemoveCgroup(c.dir, wait)
}
