package sys

import (
	"bytes"
	"os"
	"strconv"
)

// ignoredMask returns the process's ignored-signal mask (bit n-1 for signal
// n) from the SigIgn line of /proc/self/status (proc(5)).
func ignoredMask() (uint64, bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for line := range bytes.SplitSeq(status, []byte{'\n'}) {
		if v, ok := bytes.CutPrefix(line, []byte("SigIgn:")); ok {
			m, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 16, 64)
			return m, err == nil
		}
	}
	return 0, false
}
