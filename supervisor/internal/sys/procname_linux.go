package sys

import "os"

// SetProcessName sets the calling process's name (its comm: what ps, top
// and pgrep show; cut to 15 bytes by the kernel). A process started
// through /proc/self/exe (a supervisor, or jobdeck re-executing itself) is
// otherwise named "exe". It writes /proc/self/comm, which names the
// process's main thread whatever thread calls it (proc(5)).
func SetProcessName(name string) {
	if len(name) > 15 {
		name = name[:15]
	}
	_ = os.WriteFile("/proc/self/comm", []byte(name), 0)
}
