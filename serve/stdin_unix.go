//go:build unix

package serve

import (
	"os"

	"golang.org/x/sys/unix"
)

// PollableStdin returns f (the agent's end of a --serve's stdin) as a
// file in Go's netpoller when it is a pipe or a socket, with restore to
// call when done with it: it gives the descriptor its blocking mode back
// (the flag belongs to the open file, which the agent may share) and
// closes the new file. Otherwise, or on any failure, it returns f itself
// and a restore that does nothing. A terminal or a regular file is left
// alone.
//
// Why: os.Stdin of a pipe is in blocking mode, so its reader blocks in
// read(2) holding its P, and the goroutines it readied queue behind it
// until the runtime's monitor takes the P back, up to 10 ms later; while
// jobs flood, the other Ps are busy reading them and do not steal the
// queued work (ARCHITECTURE.md §4). In the netpoller the reader parks
// instead.
func PollableStdin(f *os.File) (file *os.File, restore func()) {
	none := func() {}
	rc, err := f.SyscallConn()
	if err != nil {
		return f, none
	}
	nfd, flags := -1, 0
	_ = rc.Control(func(fd uintptr) {
		var st unix.Stat_t
		if unix.Fstat(int(fd), &st) != nil {
			return
		}
		if t := st.Mode & unix.S_IFMT; t != unix.S_IFIFO && t != unix.S_IFSOCK {
			return
		}
		fl, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
		if err != nil {
			return
		}
		d, err := unix.FcntlInt(fd, unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return
		}
		if unix.SetNonblock(d, true) != nil {
			unix.Close(d)
			return
		}
		nfd, flags = d, fl
	})
	if nfd < 0 {
		return f, none
	}
	p := os.NewFile(uintptr(nfd), f.Name())
	return p, func() {
		_, _ = unix.FcntlInt(uintptr(nfd), unix.F_SETFL, flags)
		p.Close()
	}
}
