//go:build unix

package session

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/supervisor"
)

// Main is the session process's main function; it returns the exit code
// (0 once every job stopped). It expects its Config in the environment,
// its locked lock file on fd 3 and the ready pipe on fd 4, as Join's
// spawn arranges them; it answers "ok" on the ready pipe once it listens.
func Main() int {
	supervisor.SetProcessName(filepath.Base(os.Args[0]))
	ready := os.NewFile(fdReady, "ready")
	lock := os.NewFile(fdLock, "lock")
	say := func(format string, args ...any) int {
		msg := fmt.Sprintf(format, args...)
		fmt.Fprintf(os.Stderr, "%s jobdeck session: %s\n", time.Now().Format("2006-01-02 15:04:05.000"), msg)
		if ready != nil {
			fmt.Fprintf(ready, "error: %s\n", msg)
		}
		return 1
	}
	var cfg Config
	raw, ok := os.LookupEnv(envConfig)
	_ = os.Unsetenv(envConfig)
	if !ok || json.Unmarshal([]byte(raw), &cfg) != nil || ready == nil || lock == nil {
		return say("not started by a jobdeck client (no session configuration); run jobdeck instead")
	}
	// The lock came locked from the client that started us: taking it
	// again on the same open file description succeeds at once. Failing
	// means we were handed something else.
	if ok, err := tryLock(lock); err != nil || !ok {
		return say("the session lock %s is not ours (%v); another session may be starting", cfg.path(".lock"), err)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	// The session hosts the jobs: it ends what dead jobdecks left and
	// adopts what dead supervisors leave (it starts no child in a session
	// of its own, which the orphan reaper would take for a job's).
	hostErr := supervisor.HostJobs()
	srv, err := newServer(cfg)
	if err != nil {
		return say("%v", err)
	}
	srv.log.printf("started for %s (pid %d, version %s, protocol %d)", cfg.Target.Label(), srv.pid, Version(), Protocol)
	if hostErr != nil {
		srv.log.warnf("%v", hostErr)
	}
	fmt.Fprintln(ready, "ok")
	ready.Close()
	code := srv.run(sigs)
	srv.log.printf("ended")
	// A clean end (every job stopped, nothing but routine lines logged)
	// leaves no log; any other keeps it for the user to read. Removed
	// while the lock is held: the next session's log is opened only by
	// the client that takes the lock after us.
	if code == 0 && !srv.log.kept() {
		_ = os.Remove(cfg.path(".log"))
	}
	// Leave no lock file behind: removed while still held, so a client
	// that opened it meanwhile sees that its lock guards a removed file
	// (lockIsPath) and takes the new one.
	_ = os.Remove(cfg.path(".json"))
	_ = os.Remove(cfg.path(".lock"))
	lock.Close()
	return code
}
