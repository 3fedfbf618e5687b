//go:build unix

package session

import (
	"io/fs"
	"syscall"
)

// fileOwner is the uid that owns the file st describes.
func fileOwner(st fs.FileInfo) (int, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(sys.Uid), true
}
