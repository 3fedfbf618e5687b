package model

// EventKind says what changed.
type EventKind uint8

// The kinds of events the jobs core fans out.
const (
	// EventStarted: a job was added to the table.
	EventStarted EventKind = iota + 1
	// EventOutput: a job's ring gained lines or its open line changed.
	// Output events are coalesced: one may stand for many lines.
	EventOutput
	// EventState: a job's state changed (stopping, exited, processes
	// still running, tree empty, failed). Never coalesced away.
	EventState
	// EventRemoved: a finished job was dropped from the table.
	EventRemoved
	// EventSession: the session's attached clients changed (an agent came
	// or went); Job is zero and means nothing. Only a session's console
	// subscription delivers it.
	EventSession
)

// String returns the kind's name: started, output, state, removed,
// session.
func (k EventKind) String() string {
	switch k {
	case EventStarted:
		return "started"
	case EventOutput:
		return "output"
	case EventState:
		return "state"
	case EventRemoved:
		return "removed"
	case EventSession:
		return "session"
	}
	return "unknown"
}

// Event tells a subscriber that something about a job changed; the
// subscriber reads the details with Snapshot or Read.
type Event struct {
	Kind EventKind
	Job  JobID
}
