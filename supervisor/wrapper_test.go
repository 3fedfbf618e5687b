//go:build linux

package supervisor

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/model"
)

// stopWhenSleeping stops j once its tree runs a sleep and every program
// of also (the state under test: the command reached them, so its traps
// are set and no part of it is still a shell between fork and exec) and
// waits for the end.
func stopWhenSleeping(t *testing.T, j *testJob, grace time.Duration, also ...string) model.Exit {
	t.Helper()
	running := func() bool {
		for _, comm := range append([]string{"sleep"}, also...) {
			if !j.treeRuns(comm) {
				return false
			}
		}
		return true
	}
	if !testkit.Poll(10*time.Second, running) {
		t.Fatalf("the command never reached its sleep (and %v): %q", also, j.out.text())
	}
	if err := j.h.Stop(grace); err != nil {
		t.Fatal(err)
	}
	j.mustDone(10 * time.Second)
	ev, _ := j.exit()
	return ev.Exit
}

// TestWrapperEndsLikeItsCommand: a stop reports the command's own fate:
// a simple command is the leader itself, and the shell that runs any other
// command waits for it when it gets SIGTERM and then ends the way it
// ended. Either way the stop adds no line the job did not print (bash's
// "Terminated").
func TestWrapperEndsLikeItsCommand(t *testing.T) {
	t.Parallel()
	graceful := `bash -c 'trap "sleep 0.5; echo CLEANED; exit 7" TERM; echo READY; sleep 60 & wait'`
	ignores := `bash -c 'trap "" TERM; echo READY; sleep 60'`
	cases := []struct {
		name, cmd string
		want      model.Exit
	}{
		// Simple commands: the leader is the command.
		{"killed", `sleep 60`, model.Exit{Signal: int(syscall.SIGTERM)}},
		{"graceful", graceful, model.Exit{Code: 7}},
		{"ignored", ignores, model.Exit{Signal: int(syscall.SIGKILL)}},
		// Compound commands: the shell ends as its command did.
		{"killed in a list", `echo READY; sleep 60`, model.Exit{Signal: int(syscall.SIGTERM)}},
		{"graceful in a list", `echo READY; ` + graceful, model.Exit{Code: 7}},
		{"ignored in a list", `echo READY; ` + ignores, model.Exit{Signal: int(syscall.SIGKILL)}},
		// A shell loop stops on SIGTERM.
		{"loop", `while :; do sleep 0.1; done`, model.Exit{Signal: int(syscall.SIGTERM)}},
		// A compound command does not go on to its next part.
		{"list", `sleep 60; echo NEXT-PART-RAN`, model.Exit{Signal: int(syscall.SIGTERM)}},
		{"pipeline", `sleep 60 | cat; echo NEXT-PART-RAN`, model.Exit{Signal: int(syscall.SIGTERM)}},
	}
	// also: the programs that run beside the sleep, once the command
	// reached the state under test.
	also := map[string][]string{"pipeline": {"cat"}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, tty := range []bool{false, true} {
				j := startJob(t, Config{Command: c.cmd, TTY: tty})
				// A graceful handler sleeps 0.5 s: its grace leaves room
				// for a loaded machine (1 s did not, once).
				grace := time.Second
				if strings.Contains(c.name, "graceful") {
					grace = 5 * time.Second
				}
				if got := stopWhenSleeping(t, j, grace, also[c.name]...); got != c.want {
					t.Errorf("tty %v: exit %v, want %v", tty, got, c.want)
				}
				out := j.out.text() + j.errOut.text()
				if strings.Contains(out, "NEXT-PART-RAN") {
					t.Errorf("the command went on after SIGTERM: %q", out)
				}
				if strings.Contains(c.name, "graceful") && !strings.Contains(out, "CLEANED") {
					t.Errorf("the TERM handler's cleanup was cut short: %q", out)
				}
				if strings.Contains(out, "Terminated") || strings.Contains(out, "Killed") {
					t.Errorf("tty %v: the stop added bash's note to the output: %q", tty, out)
				}
			}
		})
	}
}

// TestBuiltinLoopStops: a compound command that runs only builtins when
// the stop comes (the shell itself is stopped, no program it waited for)
// ends killed by SIGTERM, not "exited 0" (what the last builtin
// returned).
func TestBuiltinLoopStops(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{
		`echo READY; while :; do :; done`,
		`echo READY; i=0; while :; do echo $i >/dev/null; i=$((i+1)); done`,
	} {
		for _, tty := range []bool{false, true} {
			j := startJob(t, Config{Command: cmd, TTY: tty})
			if !testkit.Poll(10*time.Second, func() bool { return strings.Contains(j.out.text(), "READY") }) {
				t.Fatalf("%q never printed READY", cmd)
			}
			if err := j.h.Stop(time.Second); err != nil {
				t.Fatal(err)
			}
			j.mustDone(10 * time.Second)
			ev, _ := j.exit()
			if want := (model.Exit{Signal: int(syscall.SIGTERM)}); ev.Exit != want {
				t.Errorf("%q, tty %v: exit %v, want %v", cmd, tty, ev.Exit, want)
			}
		}
	}
}

// TestSimpleCommandIsTheLeader: one simple command whose name is a program
// runs as the leader (its argv, its pid); its assignments and redirections
// apply; a builtin, a function, a missing command or anything compound is
// run by bash as before.
func TestSimpleCommandIsTheLeader(t *testing.T) {
	t.Parallel()
	j := startJob(t, Config{Command: `PORT=3123 sleep 60 2>/dev/null # a comment`})
	if !testkit.Poll(10*time.Second, func() bool { return j.treeRuns("sleep") }) {
		t.Fatal("no sleep")
	}
	// The leader is sleep once exec is done: the kernel names the process
	// before it sets the new image's environment up, so a read in between
	// sees the name and an empty environment; poll for both.
	var comm, environ []byte
	testkit.Poll(10*time.Second, func() bool {
		comm, _ = os.ReadFile(filepath.Join("/proc", strconv.Itoa(j.h.Pid()), "comm"))
		environ, _ = os.ReadFile(filepath.Join("/proc", strconv.Itoa(j.h.Pid()), "environ"))
		return strings.TrimSpace(string(comm)) == "sleep" && len(environ) > 0
	})
	if strings.TrimSpace(string(comm)) != "sleep" || !slices.Contains(strings.Split(string(environ), "\x00"), "PORT=3123") {
		t.Errorf("the leader is %q (want sleep, with PORT=3123)", comm)
	}
	if strings.Contains(string(environ), "JOBDECK_EXEC_COMMAND=") || strings.Contains(string(environ), "JOBDECK_COMMAND=") {
		t.Errorf("the wrapper's variables reached the command")
	}
	if got := stopWhenSleeping(t, j, time.Second); got != (model.Exit{Signal: int(syscall.SIGTERM)}) {
		t.Errorf("exit %v", got)
	}
	cases := []struct {
		name, cmd string
		env       []string
		want      model.Exit
		out, err  string
	}{
		{"a builtin", `cd /; echo "$PWD"`, nil, model.Exit{}, "/\n", ""},
		{"a missing command", `pcase-no-such-command --flag`, nil, model.Exit{Code: 127}, "", "pcase-no-such-command: command not found"},
		{"an exported function", `hello world`, []string{"BASH_FUNC_hello%%=() { echo \"func $1\"; }"}, model.Exit{}, "func world\n", ""},
		{"a redirection that fails", `cat </nonexistent/x`, nil, model.Exit{Code: 1}, "", "/nonexistent/x: No such file or directory"},
		{"exec of its own", `exec sh -c 'echo $0'`, nil, model.Exit{}, "sh\n", ""},
		{"assignments", `A=1 B="2 3" sh -c 'echo "$A $B"'`, nil, model.Exit{}, "1 2 3\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			j := startJob(t, Config{Command: c.cmd, Env: append(os.Environ(), c.env...)})
			j.mustDone(10 * time.Second)
			ev, _ := j.exit()
			if ev.Exit != c.want || j.out.text() != c.out || !strings.Contains(j.errOut.text(), c.err) {
				t.Errorf("exit %v out %q err %q; want %v %q %q", ev.Exit, j.out.text(), j.errOut.text(), c.want, c.out, c.err)
			}
			if c.err == "" && j.errOut.text() != "" {
				t.Errorf("stderr %q", j.errOut.text())
			}
		})
	}
}

// TestWrapperDiesOfSignalsFromElsewhere: a SIGTERM, SIGINT or SIGHUP that
// jobdeck did not send is not a stop: no exit code of the command's is
// reported in its place. The shell that runs a compound command is a
// subshell of the wrapper: $BASHPID is that shell, $$ the wrapper (the
// leader), which dies of the signal once the command is done.
func TestWrapperDiesOfSignalsFromElsewhere(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, cmd string
		want      model.Exit
		out       string
	}{
		{"TERM to the shell", `kill -TERM $BASHPID; echo NOT-REACHED`, model.Exit{Code: 143}, ""},
		{"HUP to the shell", `false; kill -HUP $BASHPID; echo NOT-REACHED`, model.Exit{Code: 129}, ""},
		// bash takes a child's death by SIGINT as its own SIGINT.
		{"INT to the shell", `kill -INT $BASHPID; echo NOT-REACHED`, model.Exit{Signal: int(syscall.SIGINT)}, ""},
		{"TERM to the wrapper", `kill -TERM $$; echo REACHED`, model.Exit{Signal: int(syscall.SIGTERM)}, "REACHED\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			j := startJob(t, Config{Command: c.cmd})
			j.mustDone(10 * time.Second)
			if ev, _ := j.exit(); ev.Exit != c.want || j.out.text() != c.out {
				t.Errorf("exit %v, output %q; want %v, %q", ev.Exit, j.out.text(), c.want, c.out)
			}
		})
	}
	t.Run("TERM to the leader while its command runs", func(t *testing.T) {
		t.Parallel()
		j := startJob(t, Config{Command: `echo READY; sleep 0.5; echo AFTER`})
		j.mustOut("READY", 10*time.Second)
		if err := syscall.Kill(j.h.Pid(), syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		j.mustDone(10 * time.Second)
		if ev, _ := j.exit(); ev.Exit != (model.Exit{Signal: int(syscall.SIGTERM)}) || !strings.Contains(j.out.text(), "AFTER") {
			t.Errorf("exit %v, output %q; want killed by SIGTERM once the command was done", ev.Exit, j.out.text())
		}
	})
}
