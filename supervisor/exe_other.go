//go:build !linux

package supervisor

import "os"

// defaultExe is the supervisor binary when Config.Exe is empty: this very
// binary, as os.Executable finds it (there is no /proc/self/exe here).
func defaultExe() string {
	exe, err := os.Executable()
	if err != nil {
		return os.Args[0]
	}
	return exe
}
