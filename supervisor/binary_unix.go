//go:build unix

package supervisor

import (
	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
	"github.com/jobdeck/jobdeck/supervisor/process"
)

// The jobdeck binary is both sides: a main package that starts jobs calls
// Hygiene first, and runs Main instead when its first argument is Arg.
// These are here so that a main package (and a test binary's TestMain)
// needs only this package.

// Main runs this binary as a supervisor process and returns its exit code
// (package supervisor/process: 0 after an empty tree, 1 when the job could
// not start, 2 on a protocol error). Call it when os.Args[1] == Arg.
func Main() int { return process.Main() }

// Hygiene prepares the calling process for starting jobs: inherited file
// descriptors above 2 become close-on-exec, and signals it inherited as
// ignored get a handler, so that neither reaches a job. It is idempotent;
// call it first thing in main.
func Hygiene() { sys.Hygiene() }

// SetProcessName sets the calling process's name (its comm: what ps, top
// and pgrep show; cut to 15 bytes by the kernel) where the system has
// one to set (Linux). A process started through /proc/self/exe is
// otherwise named "exe".
func SetProcessName(name string) { sys.SetProcessName(name) }
