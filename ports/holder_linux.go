package ports

import (
	"bytes"

	"github.com/jobdeck/jobdeck/model"
	"golang.org/x/sys/unix"
)

// Holders returns the TCP sockets listening on port (any address, IPv4
// and IPv6) and the process holding each: the first process found with
// the socket among all of /proc, and its command name. A socket of a
// process this one may not look at (another user's) comes with PID zero
// and its UID. Job, JobName and OtherSession are left for the caller
// (package jobs knows the jobs). Nil when nothing listens on port. It
// reads every process's fd table, so it costs milliseconds on a busy
// machine: it is meant for the rare "address already in use", not for
// polling; the pids of first (where the caller saw the port last) are
// looked at before the others. The error is non-nil only when the
// listening sockets cannot be read.
func Holders(port int, first ...int) ([]model.PortHolder, error) {
	if port <= 0 || port > 65535 {
		return nil, nil
	}
	var fs procfs
	var out []model.PortHolder
	byInode := map[uint64]int{}
	err := fs.listeners(func(l listener) {
		if l.port != port {
			return
		}
		if _, dup := byInode[l.inode]; dup {
			return
		}
		byInode[l.inode] = len(out)
		out = append(out, model.PortHolder{Socket: model.Port{Addr: l.addr, Port: l.port}, UID: l.uid})
	})
	if err != nil || len(out) == 0 {
		return nil, err
	}
	left := len(out)
	var fds []int
	for _, pid := range append(first, fs.allPids(nil)...) {
		fds, _ = fs.sockets(pid, fds, func(_ int, ino uint64) bool {
			if i, ok := byInode[ino]; ok && out[i].Socket.PID == 0 {
				out[i].Socket.PID = pid
				left--
			}
			return left > 0
		})
		if left == 0 {
			break
		}
	}
	for i := range out {
		if out[i].Socket.PID != 0 {
			out[i].Command = fs.comm(out[i].Socket.PID)
		}
	}
	return out, nil
}

// comm returns /proc/<pid>/comm without its newline; empty when gone.
func (p *procfs) comm(pid int) string {
	b, err := p.read(unix.AT_FDCWD, pidPath(pid, "comm"))
	if err != nil {
		return ""
	}
	return string(bytes.TrimRight(b, "\n"))
}

// Ancestors returns the parent of pid, its parent, and so on up to (not
// including) pid 1 or the first process that cannot be read: nearest
// first. Nil when pid's parent is 1 or pid is gone. Pids are read from
// /proc/<pid>/stat one after the other, so a chain can be cut by a
// process exiting meanwhile (then it ends there).
func Ancestors(pid int) []int {
	var fs procfs
	var out []int
	for range 4096 { // a chain longer than this is a loop (it cannot be)
		st, ok := fs.readStat(pid)
		if !ok || st.ppid <= 1 {
			return out
		}
		out = append(out, st.ppid)
		pid = st.ppid
	}
	return out
}

// Parent returns pid's parent pid; false when pid is gone.
func Parent(pid int) (int, bool) {
	var fs procfs
	st, ok := fs.readStat(pid)
	return st.ppid, ok
}

// Children returns the children of every thread of pid; nil when pid is
// gone or has none.
func Children(pid int) []int {
	var fs procfs
	if !childrenFiles() {
		return fs.byParent()[pid]
	}
	_, out := fs.children(pid, nil, nil)
	return out
}

// Environ returns the values of keys in pid's environment as the process
// was started (/proc/<pid>/environ; readable only for processes of the
// same user). Keys absent from it are absent from the map; nil when the
// environment cannot be read.
func Environ(pid int, keys ...string) map[string]string {
	var fs procfs
	b, err := fs.read(unix.AT_FDCWD, pidPath(pid, "environ"))
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for len(b) > 0 {
		entry := b
		if i := bytes.IndexByte(b, 0); i >= 0 {
			entry, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		k, v, ok := bytes.Cut(entry, []byte{'='})
		if !ok {
			continue
		}
		for _, want := range keys {
			if string(k) == want {
				out[want] = string(v)
			}
		}
	}
	return out
}
