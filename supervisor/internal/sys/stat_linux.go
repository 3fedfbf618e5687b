package sys

import (
	"bytes"
	"errors"
	"os"
	"strconv"
)

// ReadStat parses /proc/<pid>/stat. The command name (field 2) may hold
// spaces and parentheses, so fields are counted after the last ')'.
func ReadStat(pid int) (Stat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return Stat{}, errors.New("malformed stat")
	}
	f := bytes.Fields(b[i+2:])
	// f[0] is field 3 (state); field n is f[n-3].
	if len(f) < 20 || len(f[0]) != 1 {
		return Stat{}, errors.New("malformed stat")
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgid, err2 := strconv.Atoi(string(f[2]))
	sid, err3 := strconv.Atoi(string(f[3]))
	start, err4 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return Stat{}, errors.New("malformed stat")
	}
	return Stat{Pid: pid, PPid: ppid, Pgid: pgid, Sid: sid, State: f[0][0], Start: start}, nil
}
