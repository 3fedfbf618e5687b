// Package portstest turns a test binary into a small TCP server for tests
// that need a process listening on a port: call MaybeServe first thing in
// TestMain (or an init function), then run the test binary with Env set.
//
// It listens, prints what it listens on, and waits to be killed; it never
// accepts more than it must and ends on its own after Life, so a crashed
// test leaves nothing running for long.
package portstest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Env names the variable that makes MaybeServe serve: a comma-separated
// list of addresses to listen on ("127.0.0.1:0,[::1]:0"; port 0 asks the
// kernel for a free port). An address that cannot be listened on (no
// IPv6) is reported as "failed <addr> <error>" and skipped.
const Env = "JOBDECK_PORTSTEST_LISTEN"

// EnvHandOff, set to 1 beside Env, makes the server hand its listening
// sockets to a child process of its own and close them: it prints
// "handed <child pid>" after the "listening" lines, and the child holds
// the sockets (without accepting) until killed or Life passes. It plays
// a server whose worker keeps the socket its parent opened.
const EnvHandOff = "JOBDECK_PORTSTEST_HANDOFF"

// envHold tells the child of a hand-off how many sockets it holds.
const envHold = "JOBDECK_PORTSTEST_HOLD"

// Life is how long a serving process lives at most.
const Life = 2 * time.Minute

// MaybeServe returns at once unless Env is set; then it listens on each of
// its addresses, prints one line "listening <host:port>" for each (to
// stdout, in order), and sleeps until killed or Life passes, when it exits
// with status 0. Connections are accepted and closed. When it can listen
// on none of them, it exits with status 1 after the "failed" lines, whose
// error reads as Go's does ("listen tcp 127.0.0.1:80: bind: address
// already in use").
func MaybeServe() {
	if os.Getenv(envHold) != "" {
		time.Sleep(Life) // the sockets are inherited descriptors 3, 4 …
		os.Exit(0)
	}
	addrs := os.Getenv(Env)
	if addrs == "" {
		return
	}
	os.Unsetenv(Env) // children of the server are not servers
	var files []*os.File
	listening := 0
	for _, a := range strings.Split(addrs, ",") {
		l, err := net.Listen("tcp", a)
		if err != nil {
			fmt.Printf("failed %s %v\n", a, err)
			continue
		}
		listening++
		fmt.Printf("listening %s\n", l.Addr())
		if os.Getenv(EnvHandOff) == "1" {
			f, err := l.(*net.TCPListener).File()
			if err != nil {
				fmt.Printf("failed hand-off %v\n", err)
				os.Exit(1)
			}
			l.Close()
			files = append(files, f)
			continue
		}
		go accept(l)
	}
	if listening == 0 {
		os.Exit(1) // as a server that cannot bind does
	}
	if files != nil {
		handOff(files)
	}
	time.Sleep(Life)
	os.Exit(0)
}

// accept accepts connections and closes them, until l is closed.
func accept(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}

// handOff starts a child of this binary holding files, closes them here,
// and prints the child's pid.
func handOff(files []*os.File) {
	exe, err := os.Executable()
	if err != nil {
		fmt.Printf("failed hand-off %v\n", err)
		os.Exit(1)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envHold+"="+strconv.Itoa(len(files)))
	cmd.ExtraFiles = files
	if err := cmd.Start(); err != nil {
		fmt.Printf("failed hand-off %v\n", err)
		os.Exit(1)
	}
	for _, f := range files {
		f.Close()
	}
	fmt.Printf("handed %d\n", cmd.Process.Pid)
}

// Command returns the shell words that run exe (a test binary calling
// MaybeServe) as a server on addrs: "JOBDECK_PORTSTEST_LISTEN='…' 'exe'".
func Command(exe string, addrs ...string) string {
	return Env + "=" + quote(strings.Join(addrs, ",")) + " " + quote(exe)
}

// quote quotes s for bash.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
