//go:build unix && !linux

package process

import (
	"errors"
	"time"
)

// jobCgroup exists only on Linux; here makeCgroup always fails.
type jobCgroup struct {
	dir string
	fd  int
}

var errNoCgroup = errors.New("cgroup v2 exists only on Linux")

func makeCgroup(string, int) (*jobCgroup, error) { return nil, errNoCgroup }
func (c *jobCgroup) kill() error                 { return errNoCgroup }
func (c *jobCgroup) closeFD()                    {}
func (c *jobCgroup) remove(time.Duration) error  { return nil }
