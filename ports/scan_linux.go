package ports

import (
	"slices"

	"github.com/jobdeck/jobdeck/model"
)

// Reading a process's fd table costs a system call per descriptor (about
// 4 µs each on the CI machine class, where 200 processes hold 1,000
// descriptors), and walking a tree a few more per process. A scan
// therefore remembers which process held each listening socket it found
// and, while that stays true, checks it with one readlink instead of
// reading every table again. Trees are walked and fd tables read only
// when the kernel lists a listening socket not accounted for yet.

const (
	// foreignAfter is how many searches in a row must miss a listening
	// socket before it counts as held outside the trees and is no longer
	// searched for. Two, because a socket handed from a parent to a
	// child (fork, then close) can slip between the reads of one search.
	foreignAfter = 2
	// refreshEvery is how many scans pass before the sockets counted as
	// held outside the trees are searched for again: a socket passed
	// into a tree over a Unix socket shows within that many scans.
	refreshEvery = 30
)

// Scanner finds the TCP ports that process trees listen on. Its zero value
// is ready to use; it keeps buffers and what it found from one scan to
// the next (see Scan). It is not safe for concurrent use.
type Scanner struct {
	fs     procfs
	w      walker
	pids   []int
	fds    []int
	listen []listener
	// held maps a listening socket's inode to where a search found it;
	// foreign counts the searches that missed one.
	held    map[uint64]holding
	foreign map[uint64]int
	roots   map[int]bool // the roots of the last scan
	scans   int
	// byStat walks trees by /proc/<pid>/stat, as on kernels without
	// children files (tests).
	byStat bool
}

// holding is where a listening socket was found: in the tree of root,
// held by pid as its descriptor fd.
type holding struct{ root, pid, fd int }

// Scan returns, for each root in roots (same index), the TCP ports that
// the root and its descendants listen on, sorted by port then address,
// one entry per address and port; nil for a tree that listens on none. A
// process found in two trees counts for the first.
//
// Each scan asks the kernel for the listening sockets afresh. A socket a
// previous scan found in a tree is checked where it was found (one
// readlink); the trees are walked and their fd tables read only for
// sockets not accounted for yet, and a socket that two such searches did
// not find is taken to be held outside the trees until roots gains a root
// or refreshEvery scans pass.
//
// Processes that vanish during the scan are skipped, and a root that does
// not exist is a tree with no ports. The error is non-nil only when the
// listening sockets cannot be read at all; the result is then all nils.
func (s *Scanner) Scan(roots []int) ([][]model.Port, error) {
	out := make([][]model.Port, len(roots))
	s.remember(roots)
	s.listen = s.listen[:0]
	if err := s.fs.listeners(func(l listener) { s.listen = append(s.listen, l) }); err != nil {
		return out, err
	}
	unknown := map[uint64]bool{}
	for _, l := range s.listen {
		if h, ok := s.held[l.inode]; ok {
			if i := slices.Index(roots, h.root); i >= 0 && s.fs.holds(h.pid, h.fd, l.inode) {
				out[i] = append(out[i], model.Port{Addr: l.addr, Port: l.port, PID: h.pid})
				continue
			}
			delete(s.held, l.inode)
		}
		if s.foreign[l.inode] < foreignAfter {
			unknown[l.inode] = true
		}
	}
	if len(unknown) > 0 {
		s.search(roots, unknown)
		for _, l := range s.listen {
			if !unknown[l.inode] {
				continue
			}
			if h, ok := s.held[l.inode]; ok {
				i := slices.Index(roots, h.root)
				out[i] = append(out[i], model.Port{Addr: l.addr, Port: l.port, PID: h.pid})
			} else {
				s.foreign[l.inode]++
			}
		}
	}
	s.forget()
	for i := range out {
		out[i] = SortPorts(out[i])
	}
	return out, nil
}

// remember sets up the memo for a scan of roots: on the first scan, when
// roots gains a root (its processes were never searched), and every
// refreshEvery scans, sockets counted as held outside are searched again.
func (s *Scanner) remember(roots []int) {
	if s.held == nil {
		s.held, s.foreign, s.roots = map[uint64]holding{}, map[uint64]int{}, map[int]bool{}
	}
	s.scans++
	if s.scans%refreshEvery == 0 {
		clear(s.foreign)
	}
	gained := false
	for _, r := range roots {
		gained = gained || !s.roots[r]
	}
	if gained || len(roots) != len(s.roots) {
		if gained {
			clear(s.foreign)
		}
		clear(s.roots)
		for _, r := range roots {
			s.roots[r] = true
		}
	}
}

// forget drops what is remembered of sockets that no longer listen.
func (s *Scanner) forget() {
	listening := make(map[uint64]bool, len(s.listen))
	for _, l := range s.listen {
		listening[l.inode] = true
	}
	for ino := range s.held {
		if !listening[ino] {
			delete(s.held, ino)
		}
	}
	for ino := range s.foreign {
		if !listening[ino] {
			delete(s.foreign, ino)
		}
	}
}

// search walks the trees, parents before children, and reads the fd
// table of each process until every socket of want is found, recording
// each in held with the first process found holding it.
func (s *Scanner) search(roots []int, want map[uint64]bool) {
	if s.w.seen == nil {
		s.w.seen = map[int]bool{}
	}
	clear(s.w.seen)
	s.w.fs, s.w.parents, s.w.byStat = &s.fs, nil, s.byStat || !childrenFiles()
	left := len(want)
	for _, root := range roots {
		if root <= 0 {
			continue
		}
		s.pids = s.w.tree(root, s.pids[:0])
		for _, pid := range s.pids {
			var err error
			s.fds, err = s.fs.sockets(pid, s.fds, func(fd int, ino uint64) bool {
				if _, found := s.held[ino]; want[ino] && !found {
					s.held[ino] = holding{root: root, pid: pid, fd: fd}
					left--
				}
				return left > 0
			})
			if err != nil {
				continue // gone, a zombie (no fd table), or not ours to read
			}
			if left == 0 {
				return
			}
		}
	}
}
