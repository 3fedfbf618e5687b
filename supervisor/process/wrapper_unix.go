//go:build unix

package process

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// Environment variables that carry the command (and the stop mark's path)
// to the leader's wrapper. The wrapper unsets them before it evals the
// command, so nothing the job starts inherits them. For one simple command
// (simpleCommand), envExecName holds its name and envExecCommand the
// command with bash's exec put before the name.
const (
	envCommand     = "JOBDECK_COMMAND"
	envCommandFile = "JOBDECK_COMMAND_FILE"
	envStopMark    = "JOBDECK_STOP_MARK"
	envNproc       = "JOBDECK_NPROC"
	envExecName    = "JOBDECK_EXEC_NAME"
	envExecCommand = "JOBDECK_EXEC_COMMAND"
)

// maxArgStrlen is MAX_ARG_STRLEN on Linux: one argv or environment string,
// "NAME=value" and its NUL included, must be shorter (execve(2); measured
// here: 131071 bytes pass, 131072 fail with E2BIG).
const maxArgStrlen = 131072

// The leader is `bash -c <wrapper>`: the command text is never in any argv
// (so `pkill -f` inside a job cannot match jobdeck, the supervisor or the
// leader), only in the environment or a private file. `builtin` keeps
// exported shell functions named eval, unset, trap or read out of the
// wrapper. The command is copied into a shell variable (not exported) and
// its environment variable unset before eval, so the programs the command
// runs do not see it, and bash's own messages (a syntax error) quote the
// command alone.
//
// How the wrapper runs the command, once it has done its set-up (the
// traps below, the process limit, the variables unset):
//
//   - One simple command (simpleCommand) whose name is a program (no
//     builtin or function has the name, and bash finds it) runs as the
//     leader itself: the wrapper evals it with exec put before
//     its name. The leader then is the command: its exit status is the
//     command's own ("killed by SIGSEGV"), a stop's SIGTERM reaches it
//     directly (a command that ignores it ends "killed by SIGKILL", one
//     that shuts down gracefully keeps its code), and no shell is left to
//     add anything to the job's output.
//   - Anything else runs in a command substitution of the wrapper, $(…),
//     with its stdout put back on the job's (fd 3 carries it in; nothing is
//     captured) and with the traps below. A non-interactive bash notes on
//     stderr every foreground job that a signal other than SIGINT or
//     SIGPIPE killed ("Terminated", "Segmentation fault"; bash's jobs.c,
//     notify_of_job_status), but never inside a command substitution of a
//     `bash -c` shell: there it only records the status. So a stop, whose
//     SIGTERM kills the command's processes while the shell waits for them,
//     adds no line the job did not print. The price: bash's notes on
//     children that other signals killed are not printed either (the job's
//     status still names the signal: "exited 139 (128+SIGSEGV)"), and $$
//     is the wrapper's pid rather than that of the shell running the
//     command ($BASHPID is), so `kill $$` reaches the wrapper, which dies
//     of the signal once the command is done.
//
// The traps (TERM, INT, HUP) keep the shells from dying before the command
// they run: with a trap set, bash waits for the running command to end
// before it runs the trap (bash(1), SIGNALS). What a trap does depends on
// who sent the signal:
//
//   - jobdeck is stopping the job (the supervisor created the stop mark
//     file before it sent SIGTERM): the shell ends the way its command
//     ended: the subshell exits with the command's status (128+n when
//     the signal stopped the shell itself among builtins, subshellTrap), and the wrapper
//     re-raises SIGHUP, SIGINT or SIGTERM when that status says the command
//     died of one (128+n) and exits with it otherwise. So a command that
//     ignores SIGTERM keeps the job alive until SIGKILL ("killed by
//     SIGKILL"), one that shuts down gracefully reports its own exit code,
//     and one killed by SIGTERM reports "killed by SIGTERM".
//   - someone else signalled a shell: it dies of that signal, as bash
//     would, once the command it waits for is done.
//
// Traps are not inherited by the command's subshells or by programs it
// runs.
func wrapperTrap(sig string) string {
	return `builtin trap '__jobdeck_s=$?; builtin trap - TERM INT HUP; ` +
		`if builtin test -e "$__jobdeck_m"; then ` +
		`case $__jobdeck_s in 129|130|143) builtin kill -n $((__jobdeck_s - 128)) $$;; esac; builtin exit $__jobdeck_s; fi; ` +
		`builtin kill -s ` + sig + ` $$' ` + sig + `; `
}

// subshellTrap is wrapperTrap for the command substitution that runs the
// command: in a stop it exits with the command's status, for the wrapper
// to end by. The status is the command's when a program was running
// (bash ran the trap once it ended: $BASH_COMMAND names a file); when the
// shell itself was running builtins (`while :; do :; done`, an echo or
// read loop), $? is only the last builtin's, and the subshell exits as
// the signal would have ended it (128+n), so the job reads "killed by
// SIGTERM", not "exited 0".
func subshellTrap(sig string, n int) string {
	return `builtin trap '__jobdeck_s=$?; __jobdeck_c=${BASH_COMMAND%% *}; builtin trap - TERM INT HUP; ` +
		`if builtin test -e "$__jobdeck_m"; then ` +
		`builtin test "$(builtin type -t -- "$__jobdeck_c")" = file || __jobdeck_s=` + strconv.Itoa(128+n) + `; ` +
		`builtin exit $__jobdeck_s; fi; ` +
		`builtin kill -s ` + sig + ` $BASHPID' ` + sig + `; `
}

// builtins are bash's builtin commands (bash 5, enable -a): a simple
// command named so runs in the shell, never exec'd.
var builtins = map[string]bool{}

func init() {
	for _, b := range strings.Fields(`. : [ alias bg bind break builtin caller cd command compgen complete compopt
		continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs
		kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source
		suspend test times trap true type typeset ulimit umask unalias unset wait`) {
		builtins[b] = true
	}
}

// The wrapper lowers the soft RLIMIT_NPROC of the job to $JOBDECK_NPROC
// when that is set (procLimit), before anything of the job runs, so that
// every process of the job inherits it: in the subshell that runs the
// command, or before the exec. The wrapper itself forks that subshell
// under jobdeck's own limit (as the supervisor forked it), so a job starts
// even while another one holds all of its own. Nothing the wrapper does
// before forks.
var (
	wrapperPrologue = wrapperTrap("TERM") + wrapperTrap("INT") + wrapperTrap("HUP") +
		`__jobdeck_m=$` + envStopMark + `; __jobdeck_n=$` + envNproc + `; `
	wrapperLimit = `builtin test -n "$__jobdeck_n" && builtin ulimit -S -u "$__jobdeck_n" 2>/dev/null; `
	// wrapperRun evals $__jobdeck_c in a command substitution (see above;
	// `command exec` makes the redirection of its stdout permanent).
	wrapperRun = `{ __jobdeck_s=$(command exec 1>&3 3>&-; ` + wrapperLimit +
		subshellTrap("TERM", 15) + subshellTrap("INT", 2) + subshellTrap("HUP", 1) +
		`builtin eval "$__jobdeck_c"); } 3>&1`
	// wrapperExec evals the exec'ing form of a simple command whose name is
	// a program: no function has the name, and it is found (hash, in the
	// PATH) or is an executable file (a name with a slash). Were exec to
	// fail, the shell exits with its status rather than run the command a
	// second time.
	wrapperExec = `if builtin test -n "$__jobdeck_x" && ! builtin declare -F -- "$__jobdeck_x" >/dev/null && ` +
		`case $__jobdeck_x in */*) builtin test -f "$__jobdeck_x" && builtin test -x "$__jobdeck_x";; ` +
		`*) builtin hash -- "$__jobdeck_x" 2>/dev/null;; esac; then ` +
		wrapperLimit + `builtin eval "$__jobdeck_e"; builtin exit $?; fi; `
	// wrapperEnv runs $JOBDECK_COMMAND.
	wrapperEnv = wrapperPrologue + `__jobdeck_c=$` + envCommand + `; __jobdeck_x=$` + envExecName + `; __jobdeck_e=$` + envExecCommand + `; ` +
		`builtin unset ` + envStopMark + ` ` + envNproc + ` ` + envCommand + ` ` + envExecName + ` ` + envExecCommand + `; ` +
		wrapperExec + wrapperRun
	// wrapperFile reads the command from the file $JOBDECK_COMMAND_FILE
	// (read -d '' reads to EOF, keeping every byte), removes the file, and
	// runs the text (never exec'd: a command this long is a script).
	wrapperFile = wrapperPrologue + `IFS= builtin read -r -d '' __jobdeck_c < "$` + envCommandFile + `"; ` +
		`command rm -f -- "$` + envCommandFile + `" 2>/dev/null; ` +
		`builtin unset ` + envStopMark + ` ` + envNproc + ` ` + envCommandFile + `; ` + wrapperRun
)

// commandFitsEnv reports whether "JOBDECK_COMMAND=<cmd>" and its NUL fit
// in one environment string.
func commandFitsEnv(cmd []byte) bool {
	return len(envCommand)+1+len(cmd)+1 <= maxArgStrlen
}

// leaderCmd prepares the leader: bash running the wrapper, with the
// command in the environment (commandFile "") or in the file commandFile.
// stdin is /dev/null (os/exec opens it), stdout and stderr the job's.
func leaderCmd(bash, dir string, env []string, cmdText []byte, commandFile, mark string, stdout, stderr *os.File) *exec.Cmd {
	c := exec.Command(bash)
	env = append([]string(nil), env...)
	if mark != "" {
		env = append(env, envStopMark+"="+mark)
	}
	if commandFile == "" {
		c.Args = []string{"bash", "-c", wrapperEnv}
		env = append(env, envCommand+"="+string(cmdText))
		if name, at, ok := simpleCommand(string(cmdText)); ok && !builtins[name] {
			execText := string(cmdText)
			if at >= 0 {
				execText = execText[:at] + "builtin command exec " + execText[at:]
			}
			if len(envExecCommand)+1+len(execText)+1 <= maxArgStrlen && len(envExecName)+1+len(name)+1 <= maxArgStrlen {
				env = append(env, envExecName+"="+name, envExecCommand+"="+execText)
			}
		}
	} else {
		c.Args = []string{"bash", "-c", wrapperFile}
		env = append(env, envCommandFile+"="+commandFile)
	}
	c.Env = env
	c.Dir = dir
	c.Stdin = nil
	c.Stdout, c.Stderr = stdout, stderr
	return c
}
