package testkit

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Catches reports whether a live process whose command line (its
// arguments joined by spaces) contains name has a handler for sig: the
// SigCgt mask of /proc/<pid>/status (proc(5)). Without /proc it is false.
func Catches(name string, sig syscall.Signal) bool { return inMask(name, "SigCgt", sig) }

// Ignores reports whether a live process whose command line contains name
// ignores sig (SigIgn).
func Ignores(name string, sig syscall.Signal) bool { return inMask(name, "SigIgn", sig) }

// SignalMask returns the mask field (SigIgn, SigCgt, SigBlk, SigPnd) of
// /proc/<pid>/status: bit n-1 for signal n.
func SignalMask(pid int, field string) (uint64, bool) {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	return maskIn(status, field)
}

func maskIn(status []byte, field string) (uint64, bool) {
	for line := range bytes.SplitSeq(status, []byte{'\n'}) {
		if v, ok := bytes.CutPrefix(line, []byte(field+":")); ok {
			m, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 16, 64)
			return m, err == nil
		}
	}
	return 0, false
}

func inMask(name, field string, sig syscall.Signal) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !strings.Contains(strings.ReplaceAll(string(cmd), "\x00", " "), name) {
			continue
		}
		if m, ok := SignalMask(pid, field); ok && m&(1<<(uint(sig)-1)) != 0 {
			return true
		}
	}
	return false
}
