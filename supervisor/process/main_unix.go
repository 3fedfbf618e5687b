//go:build unix

package process

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/supervisor/internal/sys"
	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// Main is the supervisor process's main function; it returns the exit code
// (0 after an empty tree, 1 when the job could not start, 2 on a protocol
// error). It expects the control pipe on stdin, the event pipe on fd 3 and
// the job's stdout and stderr on fds 4 and 5, as supervisor.Start
// arranges. Package supervisor re-exports it for main packages.
func Main() int {
	sys.Hygiene()
	sys.SetProcessName(filepath.Base(os.Args[0]))
	// Pdeathsig (the leader's SIGKILL when the supervisor dies) fires when
	// the *thread* that forked the leader exits, not the process
	// (prctl(2), golang/go#27505). The leader is started from this
	// goroutine, locked to its thread for the whole life of the process,
	// so that thread only goes away with the supervisor.
	runtime.LockOSThread()

	evf := os.NewFile(3, "events")
	if evf == nil {
		return 2
	}
	ev := newEmitter(evf)
	code := runSupervisor(ev)
	ev.close(2 * time.Second)
	return code
}

// runSupervisor reads the start request, starts the job and runs it until
// its tree is empty.
func runSupervisor(ev *emitter) int {
	// SIGTERM, SIGINT or SIGHUP to the supervisor itself means the same as
	// EOF on the control pipe: stop the tree with the start grace.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	ctl := readControl(os.Stdin)
	out, errf := os.NewFile(4, "job-stdout"), os.NewFile(5, "job-stderr")

	s := &sup{ev: ev, self: os.Getpid(), out: out, errf: errf, leaderFD: -1, reported: -1,
		termed: map[sys.Key]bool{}, killed: map[sys.Key]bool{}}
	var line []byte
	select {
	case l, ok := <-ctl:
		if !ok {
			return s.fail(wire.FailOther, "no start request: jobdeck closed the control pipe first", 2)
		}
		line = l
	case sig := <-sigs:
		return s.fail(wire.FailOther, "stopped by "+sig.String()+" before the start request", 2)
	}
	if err := json.Unmarshal(line, &s.req); err != nil || s.req.Op != wire.OpStart {
		return s.fail(wire.FailOther, fmt.Sprintf("bad start request (%v); jobdeck and its supervisor binary do not match", err), 2)
	}
	if out == nil || errf == nil {
		return s.fail(wire.FailOther, "the supervisor was started without the job's output on fds 4 and 5", 2)
	}
	s.grace = time.Duration(s.req.GraceNS)
	switch {
	case s.grace < 0:
		s.grace = 0 // no grace: SIGKILL at once
	case s.grace == 0:
		s.grace = wire.DefaultGrace
	}
	if code, ok := s.startLeader(); !ok {
		return code
	}
	return s.loop(ctl, sigs)
}

// readControl delivers control lines until EOF (or an unreadable line),
// then closes the channel.
func readControl(f *os.File) <-chan []byte {
	ch := make(chan []byte, 16)
	go func() {
		defer close(ch)
		r := bufio.NewReaderSize(f, 64<<10)
		for {
			line, err := wire.ReadLine(r, wire.MaxRequestBytes)
			if err != nil {
				return
			}
			ch <- line
		}
	}()
	return ch
}
