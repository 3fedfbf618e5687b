package ports

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"

	"golang.org/x/sys/unix"
)

// procfs reads /proc with buffers kept between calls, so that a scan of a
// few hundred processes allocates little. Not safe for concurrent use.
type procfs struct {
	buf  []byte // the last file read
	dbuf []byte // getdents records
	lbuf []byte // readlink targets
	name []byte // a NUL-terminated path built in place
	diag []listener
}

// gone reports whether err means the process (or its file) is not there
// any more, or may not be looked at: both mean "skip it".
func gone(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ESRCH) ||
		errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM) ||
		errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.EINVAL)
}

// open opens path (relative to dirfd, or absolute with unix.AT_FDCWD)
// read-only and close-on-exec, retrying on EINTR.
func open(dirfd int, path string, flags int) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, path, unix.O_RDONLY|unix.O_CLOEXEC|flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// read returns the whole content of path (relative to dirfd). The slice
// is p's buffer: valid until the next call.
func (p *procfs) read(dirfd int, path string) ([]byte, error) {
	fd, err := open(dirfd, path, 0)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	if p.buf == nil {
		p.buf = make([]byte, 16<<10)
	}
	n := 0
	for {
		if n == len(p.buf) {
			p.buf = append(p.buf, make([]byte, len(p.buf))...)
		}
		m, err := unix.Read(fd, p.buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if m == 0 {
			return p.buf[:n], nil
		}
		n += m
	}
}

// numbers appends to out the entries of the directory dirfd whose names
// are decimal numbers (pids, tids, fds). The directory is read from its
// current offset to the end.
func (p *procfs) numbers(dirfd int, out []int) ([]int, error) {
	if p.dbuf == nil {
		p.dbuf = make([]byte, 8<<10)
	}
	for {
		n, err := unix.ReadDirent(dirfd, p.dbuf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return out, err
		}
		if n <= 0 {
			return out, nil
		}
		out = appendDirNumbers(p.dbuf[:n], out)
	}
}

// appendDirNumbers parses linux_dirent64 records (getdents64(2)) and
// appends the decimal names.
func appendDirNumbers(b []byte, out []int) []int {
	const nameOff = 19 // d_ino (8), d_off (8), d_reclen (2), d_type (1)
	for len(b) >= nameOff {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < nameOff || reclen > len(b) {
			break
		}
		name := b[nameOff:reclen]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if v, ok := atoi(name); ok {
			out = append(out, v)
		}
		b = b[reclen:]
	}
	return out
}

// atoi parses a non-negative decimal number of at most 18 digits.
func atoi(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	v := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// pidPath returns "/proc/<pid>/<rest>" as a string.
func pidPath(pid int, rest string) string {
	return "/proc/" + strconv.Itoa(pid) + "/" + rest
}

// openDir opens a directory of /proc.
func openDir(path string) (int, error) {
	return open(unix.AT_FDCWD, path, unix.O_DIRECTORY)
}

// sockets calls f with the number and inode of each socket pid holds
// open: the /proc/<pid>/fd links that read "socket:[<inode>]". It stops
// early when f returns false. fds is scratch space, returned for reuse.
func (p *procfs) sockets(pid int, fds []int, f func(fd int, inode uint64) bool) ([]int, error) {
	dirfd, err := openDir(pidPath(pid, "fd"))
	if err != nil {
		return fds, err
	}
	defer unix.Close(dirfd)
	fds, err = p.numbers(dirfd, fds[:0])
	if err != nil {
		return fds, err
	}
	if p.lbuf == nil {
		p.lbuf = make([]byte, 256)
	}
	for _, fd := range fds {
		p.name = strconv.AppendInt(p.name[:0], int64(fd), 10)
		n, err := unix.Readlinkat(dirfd, string(p.name), p.lbuf)
		if err != nil {
			continue // closed meanwhile
		}
		if ino, ok := socketInode(p.lbuf[:n]); ok && !f(fd, ino) {
			break
		}
	}
	return fds, nil
}

// holds reports whether pid's file descriptor fd is the socket inode.
func (p *procfs) holds(pid, fd int, inode uint64) bool {
	if p.lbuf == nil {
		p.lbuf = make([]byte, 256)
	}
	n, err := unix.Readlink(pidPath(pid, "fd/"+strconv.Itoa(fd)), p.lbuf)
	if err != nil {
		return false
	}
	ino, ok := socketInode(p.lbuf[:n])
	return ok && ino == inode
}

// socketInode parses "socket:[12345]".
func socketInode(link []byte) (uint64, bool) {
	const pre = "socket:["
	if len(link) < len(pre)+2 || string(link[:len(pre)]) != pre || link[len(link)-1] != ']' {
		return 0, false
	}
	v, ok := atoi(link[len(pre) : len(link)-1])
	return uint64(v), ok
}
