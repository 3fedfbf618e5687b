package wire

import (
	"fmt"
	"strconv"
	"time"
)

// Arg is the hidden first argument that makes a jobdeck binary (or a test
// binary whose TestMain checks for it) run as a supervisor. jobdeck starts
// every supervisor with it, and a jobdeck that cleans up after a dead one
// recognises a live supervisor by it (its argv[1]).
const Arg = "__jobdeck_supervisor"

// EnvSession and EnvJob name the environment markers every process of a job
// inherits: EnvSession=<session> and EnvJob=<job in decimal>. The supervisor
// sets them on the leader; jobdeck scans /proc/<pid>/environ for both to
// find what a lost supervisor left behind, and the port scanner to tell
// whose a listening process is.
const (
	EnvSession = "JOBDECK_SESSION"
	EnvJob     = "JOBDECK_JOB"
)

// DefaultGrace is the grace of a start request whose GraceNS is zero: 5 s.
const DefaultGrace = 5 * time.Second

// CgroupName is the name of a job's cgroup v2 directory,
// jobdeck-<session>-<job>: the supervisor makes it beside its own cgroup,
// and jobdeck finds it there when the supervisor died before it said
// which it made.
func CgroupName(session string, job int) string {
	return fmt.Sprintf("jobdeck-%s-%d", session, job)
}

// PrivatePrefix starts the name of every job's private directory.
const PrivatePrefix = "jobdeck-job-"

// PrivateName is the name of a job's private directory without its random
// suffix: PrivatePrefix + "<session>-<job>". The supervisor makes
// PrivateName + "-<random>" (0700, os.MkdirTemp) for the stop mark and a
// long command's file; jobdeck removes what matches PrivateName + "-*" when
// the supervisor died first. Sessions hold only [A-Za-z0-9._-], so the name
// has no glob metacharacters.
func PrivateName(session string, job int) string {
	return PrivatePrefix + session + "-" + strconv.Itoa(job)
}
