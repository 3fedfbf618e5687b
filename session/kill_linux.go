package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// signalSession sends SIGTERM to the live session of key in dir without
// speaking its protocol (one of another version, or one that does not
// answer): the process its info file names, once it is verified to hold
// the session's lock file open (its fd 3 since it started), through a
// pidfd, so a recycled pid is never signalled. It returns the pid.
func signalSession(dir, key string) (int, error) {
	var info Info
	b, err := os.ReadFile(filepath.Join(dir, key+".json"))
	if err == nil {
		err = json.Unmarshal(b, &info)
	}
	if err != nil || info.PID <= 0 {
		return 0, fmt.Errorf("the session's info file names no process (%v)", err)
	}
	fd, err := unix.PidfdOpen(info.PID, 0)
	if err != nil {
		return 0, fmt.Errorf("process %d: %w", info.PID, err)
	}
	defer unix.Close(fd)
	if !holdsFile(info.PID, filepath.Join(dir, key+".lock")) {
		return 0, fmt.Errorf("process %d does not hold the session's lock: not signalled", info.PID)
	}
	if err := unix.PidfdSendSignal(fd, unix.SIGTERM, nil, 0); err != nil {
		return 0, fmt.Errorf("signal process %d: %w", info.PID, err)
	}
	return info.PID, nil
}

// holdsFile reports whether process pid has path open (by inode).
func holdsFile(pid int, path string) bool {
	var want unix.Stat_t
	if unix.Stat(path, &want) != nil {
		return false
	}
	fdDir := "/proc/" + strconv.Itoa(pid) + "/fd"
	ents, err := os.ReadDir(fdDir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		var st unix.Stat_t
		if unix.Stat(filepath.Join(fdDir, e.Name()), &st) == nil && st.Dev == want.Dev && st.Ino == want.Ino {
			return true
		}
	}
	return false
}
