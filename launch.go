package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"syscall"
)

// launchEnv names the private file that carries the commands of
// `jobdeck -- 'cmd' …` across the re-exec in hideCommands; the new process
// reads it, removes it and unsets the variable. A file, not the
// environment itself: one environment string holds at most 128 KiB.
const launchEnv = "JOBDECK_LAUNCH_FILE"

// hideCommands re-executes jobdeck with the job commands moved from its
// argv to a private file, so that jobdeck's own command line (what `ps`
// shows and `pkill -f` matches) holds no job's text: a job that runs
// `pkill -f <its server>` must not kill the console that started it. flags
// are the arguments before the commands. On success it does not return; if
// it cannot, jobdeck goes on with the commands still visible and says so
// on stderr.
func hideCommands(flags, commands []string, stderr io.Writer) {
	err := reexec(flags, commands)
	fmt.Fprintf(stderr, "jobdeck: could not move the commands out of jobdeck's argv (%v); a `pkill -f` in a job may match jobdeck\n", err)
}

func reexec(flags, commands []string) error {
	enc, err := json.Marshal(commands)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp("", "jobdeck-launch-*.json") // mode 0600
	if err != nil {
		return err
	}
	_, werr := f.Write(enc)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(f.Name())
		return werr
	}
	if n := len(flags); n > 0 && flags[n-1] == "--" {
		flags = flags[:n-1]
	}
	exe := "/proc/self/exe"
	if runtime.GOOS != "linux" {
		if exe, err = os.Executable(); err != nil {
			os.Remove(f.Name())
			return err
		}
	}
	env := append(os.Environ(), launchEnv+"="+f.Name())
	err = syscall.Exec(exe, append([]string{os.Args[0]}, flags...), env)
	os.Remove(f.Name()) // only reached when the exec failed
	return err
}

// launchCommands reads and removes the file of commands hideCommands left
// for this process. ok is false when jobdeck was not re-executed.
func launchCommands() (commands []string, ok bool, err error) {
	path, ok := os.LookupEnv(launchEnv)
	if !ok {
		return nil, false, nil
	}
	_ = os.Unsetenv(launchEnv)
	b, err := os.ReadFile(path)
	os.Remove(path)
	if err != nil {
		return nil, true, err
	}
	return commands, true, json.Unmarshal(b, &commands)
}
