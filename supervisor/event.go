package supervisor

import (
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// EventKind says what a supervisor reported.
type EventKind uint8

// Kinds of Event, in the order they can happen.
const (
	// EventExit: the leader exited; Event.Exit says how and
	// Event.Remaining how many other processes of the tree still run.
	EventExit EventKind = iota + 1
	// EventRemaining: the number of processes of the tree still running
	// changed (reported after the leader exits, and during a stop).
	EventRemaining
	// EventSignalled: a stop signalled processes: Event.Signal is SIGTERM
	// or SIGKILL, Event.Count how many processes got it this time. Each
	// process gets SIGTERM at most once; SIGKILL events appear only when
	// something outlived the grace.
	EventSignalled
	// EventEmpty: the tree is empty (no process left; Remaining is zero).
	// It is the last event; the supervisor exits after it.
	EventEmpty
	// EventLost: the supervisor went away without reporting an empty tree
	// (it was killed, or crashed). jobdeck killed what it could still find
	// of the tree (its cgroup, processes carrying the job's markers and,
	// where it adopts orphans, what came back to it) and removed the job's
	// private directory; Event.Err says what happened. It is the last
	// event.
	EventLost
	// EventLimit: the job was seen at its process limit (its forks
	// failed); Event.Note says which limit and how it was seen. At most
	// once per job, at any time before the last event.
	EventLimit
	// EventOOM: the kernel's OOM killer killed Event.Count processes of
	// the job's cgroup (its memory.events). At most once, before the
	// last event; never without a cgroup with the memory controller.
	EventOOM
)

// String returns the kind's name: exit, remaining, signalled, empty, lost,
// limit, oom.
func (k EventKind) String() string {
	switch k {
	case EventExit:
		return "exit"
	case EventRemaining:
		return "remaining"
	case EventSignalled:
		return "signalled"
	case EventEmpty:
		return "empty"
	case EventLost:
		return "lost"
	case EventLimit:
		return "limit"
	case EventOOM:
		return "oom"
	}
	return "unknown"
}

// Event is one report from a supervisor.
type Event struct {
	Kind      EventKind
	Time      time.Time  // when the supervisor saw it happen
	Exit      model.Exit // EventExit
	Remaining int        // EventRemaining, EventExit: processes left running besides the leader, each counted with what it started
	Signal    int        // EventSignalled
	Count     int        // EventSignalled, EventOOM
	Err       string     // EventLost
	Note      string     // EventLimit
}
