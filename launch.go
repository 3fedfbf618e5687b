package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"
)

// launchEnv carries the commands of `jobdeck -- 'cmd' …` across the
// re-exec in hideCommands; the new process reads and unsets it.
const launchEnv = "JOBDECK_LAUNCH"

// hideCommands re-executes jobdeck with the job commands moved from its
// argv to the environment, so that jobdeck's own command line (what
// `ps` shows and `pkill -f` matches) holds no job's text: a job that runs
// `pkill -f <its server>` must not kill the console that started it. flags
// are the arguments before the commands. On success it does not return; if
// the re-exec fails, jobdeck goes on with the commands still visible and
// says so on stderr.
func hideCommands(flags, commands []string, stderr io.Writer) {
	enc, err := json.Marshal(commands)
	if err == nil {
		if n := len(flags); n > 0 && flags[n-1] == "--" {
			flags = flags[:n-1]
		}
		exe := "/proc/self/exe"
		if runtime.GOOS != "linux" {
			exe, err = os.Executable()
		}
		if err == nil {
			env := append(os.Environ(), launchEnv+"="+string(enc))
			err = syscall.Exec(exe, append([]string{os.Args[0]}, flags...), env)
		}
	}
	fmt.Fprintf(stderr, "jobdeck: could not move the commands out of jobdeck's argv (%v); a `pkill -f` in a job may match jobdeck\n", err)
}
