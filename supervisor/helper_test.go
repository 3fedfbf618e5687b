//go:build linux

package supervisor

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
)

// runHelper runs the test binary as a helper process:
//
//	fakejobdeck: a stand-in for jobdeck that starts one job (command in
//	  SUPTEST_CMD, session SUPTEST_SESSION, grace SUPTEST_GRACE_MS, pty when
//	  SUPTEST_TTY=1), copies the job's stdout and stderr to its own stdout,
//	  and waits to be killed (see fakeJobdeckMain for its other knobs).
//	listen: listens on 127.0.0.1:SUPTEST_PORT (0: any), prints
//	  "LISTEN <port>", accepts connections and exits after SUPTEST_LIFE s.
//	ticker: prints "tick N" every 100 ms for SUPTEST_LIFE s (one process,
//	  no children).
//	exec PROGRAM ARGV0 ARGS...: execs PROGRAM (looked up in PATH) with the
//	  given argv, so scripts need neither setsid(1) nor perl.
//	children N PROGRAM ARGV0 ARGS...: starts N copies of PROGRAM (each in a
//	  session of its own when SUPTEST_CHILD_SETSID=1) and waits for them:
//	  Go starts a child with vfork, far cheaper than a fork of bash or a
//	  start of this binary per child.
//
// Before any mode, SUPTEST_SETSID=1 calls setsid(2) and SUPTEST_SETPGID=1
// setpgid(0, 0).
func runHelper(mode string) int {
	if os.Getenv("SUPTEST_SETSID") == "1" {
		if _, err := syscall.Setsid(); err != nil {
			fmt.Fprintln(os.Stderr, "setsid:", err)
			return 1
		}
	}
	if os.Getenv("SUPTEST_SETPGID") == "1" {
		if err := syscall.Setpgid(0, 0); err != nil {
			fmt.Fprintln(os.Stderr, "setpgid:", err)
			return 1
		}
	}
	switch mode {
	case "exec":
		path, argv, code := helperProgram(os.Args[1:], "exec PROGRAM ARGV0 ARGS...")
		if code != 0 {
			return code
		}
		err := syscall.Exec(path, argv, helperlessEnv())
		fmt.Fprintln(os.Stderr, "exec:", err)
		return 126
	case "children":
		const usage = "children N PROGRAM ARGV0 ARGS..."
		var n int
		if len(os.Args) > 1 {
			n, _ = strconv.Atoi(os.Args[1])
		}
		if n <= 0 {
			fmt.Fprintln(os.Stderr, "usage:", usage)
			return 2
		}
		path, argv, code := helperProgram(os.Args[2:], usage)
		if code != 0 {
			return code
		}
		attr := &syscall.SysProcAttr{Setsid: os.Getenv("SUPTEST_CHILD_SETSID") == "1"}
		env := helperlessEnv()
		children := make([]*exec.Cmd, 0, n)
		for range n {
			c := &exec.Cmd{Path: path, Args: argv, Env: env, SysProcAttr: attr}
			if err := c.Start(); err != nil {
				fmt.Fprintln(os.Stderr, "children:", err)
				return 1
			}
			children = append(children, c)
		}
		for _, c := range children {
			_ = c.Wait()
		}
		return 0
	case "ticker":
		life, _ := strconv.Atoi(os.Getenv("SUPTEST_LIFE"))
		end := time.Now().Add(time.Duration(life) * time.Second)
		for i := 1; time.Now().Before(end); i++ {
			fmt.Printf("tick %d\n", i)
			time.Sleep(100 * time.Millisecond)
		}
		return 0
	case "fakejobdeck":
		return fakeJobdeckMain()
	case "listen":
		life, _ := strconv.Atoi(os.Getenv("SUPTEST_LIFE"))
		if life <= 0 {
			life = 30
		}
		ln, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("SUPTEST_PORT"))
		if err != nil {
			fmt.Println("LISTEN-ERROR", err)
			return 1
		}
		fmt.Println("LISTEN", ln.Addr().(*net.TCPAddr).Port)
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				go func() { _, _ = io.Copy(io.Discard, c) }()
			}
		}()
		time.Sleep(time.Duration(life) * time.Second)
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
	return 2
}

// helperProgram reads "PROGRAM ARGV0 ARGS..." from args: PROGRAM's path
// (looked up in PATH) and the argv to run it with. On bad args it prints
// usage or the lookup error and returns the exit code (2, or 127 for a
// program not found); otherwise code is 0.
func helperProgram(args []string, usage string) (path string, argv []string, code int) {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage:", usage)
		return "", nil, 2
	}
	path, err := exec.LookPath(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return "", nil, 127
	}
	return path, args[1:], 0
}

// helperlessEnv is this process's environment without the helper's mode,
// for the programs a helper starts.
func helperlessEnv() []string {
	env := os.Environ()
	for i, kv := range env {
		if strings.HasPrefix(kv, helperEnv+"=") {
			return append(env[:i], env[i+1:]...)
		}
	}
	return env
}

// fakeJobdeckMain is the fakejobdeck helper. Besides the job's output it
// prints "HELPER-STARTED <leader pid> cgroup=<job cgroup>" and, when the
// supervisor is lost, "HELPER-LOST <reason>". SUPTEST_ROCGROUP=1 remounts
// the cgroup2 hierarchy read-only first (start it in a mount namespace of
// its own), SUPTEST_NOCGROUP=1 starts the job without a cgroup,
// SUPTEST_ADOPT=1 calls AdoptOrphans; the line "kill-supervisor" on stdin
// SIGKILLs the job's supervisor.
func fakeJobdeckMain() int {
	Hygiene()
	if os.Getenv("SUPTEST_ROCGROUP") == "1" {
		if err := readOnlyCgroup2(); err != nil {
			fmt.Println("HELPER-ERROR", err)
			return 1
		}
	}
	if os.Getenv("SUPTEST_ADOPT") == "1" {
		if err := AdoptOrphans(); err != nil {
			fmt.Println("HELPER-ERROR", err)
			return 1
		}
	}
	grace, _ := strconv.Atoi(os.Getenv("SUPTEST_GRACE_MS"))
	h, err := Start(Config{
		Command:  os.Getenv("SUPTEST_CMD"),
		Dir:      os.TempDir(),
		Env:      os.Environ(),
		TTY:      os.Getenv("SUPTEST_TTY") == "1",
		Grace:    time.Duration(grace) * time.Millisecond,
		Session:  os.Getenv("SUPTEST_SESSION"),
		NoCgroup: os.Getenv("SUPTEST_NOCGROUP") == "1",
	})
	if err != nil {
		fmt.Println("HELPER-ERROR", err)
		return 1
	}
	fmt.Println("HELPER-STARTED", h.Pid(), "cgroup="+h.Cgroup())
	go func() { _, _ = io.Copy(os.Stdout, h.Stdout()) }()
	go func() { _, _ = io.Copy(os.Stdout, h.Stderr()) }()
	go func() {
		for ev := range h.Events() {
			if ev.Kind == EventLost {
				fmt.Println("HELPER-LOST", ev.Err)
			}
		}
	}()
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			if sc.Text() == "kill-supervisor" {
				_ = h.proc.Signal(syscall.SIGKILL)
			}
		}
	}()
	select {}
}

// readOnlyCgroup2 remounts the cgroup2 hierarchy read-only in this
// process's mount namespace (it must have one of its own), so that no job
// can get a cgroup. Without a cgroup2 mount there is nothing to do.
func readOnlyCgroup2() error {
	mnt, _, err := sys.Cgroup2Mount()
	if err != nil {
		return nil
	}
	if err := syscall.Mount("none", mnt, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
		return fmt.Errorf("remount %s read-only: %w", mnt, err)
	}
	return nil
}
