//go:build unix

package session

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// watchEvery is how often a session checks that its socket is still there.
const watchEvery = 2 * time.Second

// watchSocket re-creates the session's socket when something removed it
// (a tmp cleaner, a user deleting files by hand): a live session must stay
// reachable, and its lock keeps a second one from starting meanwhile.
func (s *server) watchSocket() {
	path := s.cfg.path(".sock")
	ino := inode(path)
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		select {
		case <-s.stopCh:
			return
		case <-t.C:
		}
		now := inode(path)
		if now == ino && ino != 0 {
			continue
		}
		if _, err := os.Stat(s.cfg.Dir); err != nil {
			continue // the directory itself is gone: nothing to serve in
		}
		if now != 0 {
			// Something else is there now: leave it, say so once.
			s.log.once("socket-replaced", "%s is no longer this session's socket; leaving it alone", path)
			continue
		}
		ln, err := listen(path)
		if err != nil {
			s.log.once("relisten", "re-creating the removed socket %s: %v", path, err)
			continue
		}
		s.lnMu.Lock()
		old := s.ln
		old.SetUnlinkOnClose(false) // its file is gone already
		s.ln = ln
		s.lnMu.Unlock()
		old.Close()
		s.log.warnf("re-created the removed socket %s", path)
		ino = inode(path)
		go s.acceptLoop(ln)
	}
}

// inode is the inode of the socket at path, or 0.
func inode(path string) uint64 {
	st, err := os.Lstat(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			return 1 // unreadable: leave it be
		}
		return 0
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && st.Mode()&fs.ModeSocket != 0 {
		return sys.Ino
	}
	return 1
}
