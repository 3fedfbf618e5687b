package jobs

import (
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/supervisor"
)

// notifyEvery bounds how often one job's output activity is announced to
// subscribers and waiters: a flood costs at most this many wake-ups per
// second, however many reads it takes.
const notifyEvery = 10 * time.Millisecond

// readBuf is the size of one read from a job's pty or pipe: as big as a
// pipe's default capacity, so a flood drains in few reads.
const readBuf = 64 << 10

// job is one entry of the table: its spec, its ring, its state and the
// goroutines that feed them (two readers, an event loop, a notifier).
type job struct {
	t     *Table
	id    model.JobID
	spec  model.Spec
	grace time.Duration // the stop grace when none is asked for (zero: none)
	// realDir is spec.Dir with symbolic links resolved: two paths to one
	// directory are the same directory to the duplicate guard.
	realDir string
	ring    ring

	// activity is poked (non-blocking) by readers after each read; the
	// notifier turns pokes into broadcasts at most every notifyEvery.
	activity chan struct{}
	doneCh   chan struct{} // closed when done: tree empty and output read

	mu        sync.Mutex // guards the fields below
	h         *supervisor.Handle
	state     model.State
	pid       int
	cgroup    bool
	started   time.Time
	ended     time.Time
	exit      *model.Exit
	remaining int
	stopInfo  *model.Stop
	errMsg    string
	oomKills  int            // the OOM killer's kills in the job's cgroup
	notes     []string       // the supervisor's fallbacks
	size      model.TermSize // the pty's size as last resized (zero: the spec's)
	treeEmpty bool
	streams   int // output streams still open
	done      bool
	finishAt  time.Time
	changed   chan struct{} // closed and replaced on every change (broadcast)

	portInfo portState // listening ports and "in use" conflict (ports.go)

	// restartOf is the job this one restarts (set before the job is in
	// the table, then never changed).
	restartOf *model.JobID
	// rerun is this job's restart, once one began (guarded by t.mu, not
	// j.mu; restart.go).
	rerun rerunState
}

func newJob(t *Table, id model.JobID, spec model.Spec, grace time.Duration) *job {
	return &job{
		t: t, id: id, spec: spec, grace: grace,
		activity: make(chan struct{}, 1),
		doneCh:   make(chan struct{}),
		state:    model.StateRunning,
		started:  time.Now(),
		changed:  make(chan struct{}),
	}
}

// fail records a job that could not be started.
func (j *job) fail(reason string) {
	j.mu.Lock()
	j.state = model.StateFailed
	j.errMsg = reason
	j.ended = time.Now()
	j.treeEmpty = true
	j.mu.Unlock()
	j.finish()
}

// run wires a started supervisor to the job and starts its goroutines.
func (j *job) run(h *supervisor.Handle) {
	j.mu.Lock()
	j.h = h
	j.pid = h.Pid()
	j.cgroup = h.Cgroup() != ""
	j.notes = dedupe(h.Notes())
	j.streams = 2
	j.mu.Unlock()
	g := &j.t.goroutines
	g.Go(func() { j.readLoop(h.Stdout(), model.StreamOut) })
	g.Go(func() { j.readLoop(h.Stderr(), model.StreamErr) })
	g.Go(func() { j.eventLoop(h.Events()) })
	g.Go(j.notifier)
}

// dedupe returns notes without repeats and blanks, in their order; nil
// when none are left.
func dedupe(notes []string) []string {
	var out []string
	for _, n := range notes {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// readLoop reads one stream until EOF (a pty's EIO counts as EOF). It
// blocks on nothing but read: the ring never waits for its readers, and a
// poke is a non-blocking send.
func (j *job) readLoop(f *os.File, s model.Stream) {
	j.t.ingest.ingest(f, stream{s: s, r: &j.ring, activity: j.activity})
	f.Close()
	j.ring.closeStream(s, time.Now())
	j.mu.Lock()
	j.streams--
	j.mu.Unlock()
	j.changedState()
	j.checkDone()
}

// notifier turns read pokes into broadcasts and output events, at most one
// per notifyEvery. It ends when the job is done.
func (j *job) notifier() {
	pause := time.NewTimer(notifyEvery)
	defer pause.Stop()
	for {
		select {
		case <-j.activity:
		case <-j.doneCh:
			return
		}
		j.broadcast()
		j.t.publish(model.Event{Kind: model.EventOutput, Job: j.id})
		pause.Reset(notifyEvery)
		select {
		case <-pause.C:
		case <-j.doneCh:
			return
		}
	}
}

// broadcast wakes every waiter of this job.
func (j *job) broadcast() {
	j.mu.Lock()
	close(j.changed)
	j.changed = make(chan struct{})
	j.mu.Unlock()
}

// changedState wakes waiters and tells subscribers about a state change.
func (j *job) changedState() {
	j.broadcast()
	j.t.publish(model.Event{Kind: model.EventState, Job: j.id})
}

// eventLoop applies the supervisor's reports until its channel closes.
func (j *job) eventLoop(events <-chan supervisor.Event) {
	for ev := range events {
		j.mu.Lock()
		switch ev.Kind {
		case supervisor.EventExit:
			e := ev.Exit
			j.exit = &e
			j.ended = ev.Time
			j.remaining = ev.Remaining
			j.state = model.StateExited
		case supervisor.EventRemaining:
			j.remaining = ev.Remaining
		case supervisor.EventSignalled:
			if j.stopInfo != nil {
				switch ev.Signal {
				case int(syscall.SIGTERM):
					j.stopInfo.TermSent += ev.Count
				case int(syscall.SIGKILL):
					j.stopInfo.KillSent += ev.Count
				}
			}
		case supervisor.EventLimit:
			j.errMsg = addNote(j.errMsg, ev.Note)
		case supervisor.EventOOM:
			j.oomKills = ev.Count
		case supervisor.EventEmpty, supervisor.EventLost:
			j.treeEmpty = true
			j.remaining = 0
			if ev.Kind == supervisor.EventLost {
				j.errMsg = addNote(j.errMsg, ev.Err)
			}
			if j.stopInfo != nil && j.stopInfo.Done.IsZero() {
				j.stopInfo.Done = ev.Time
			}
			if j.exit == nil {
				// Lost before the leader's exit was reported.
				j.state = model.StateExited
				if j.ended.IsZero() {
					j.ended = ev.Time
				}
				j.exit = &model.Exit{Signal: int(syscall.SIGKILL)}
			}
		}
		j.mu.Unlock()
		j.changedState()
	}
	j.mu.Lock()
	if !j.treeEmpty {
		// The channel closed without a last event: treat it as lost.
		j.treeEmpty = true
		if j.errMsg == "" {
			j.errMsg = "the supervisor ended without a final report"
		}
	}
	j.mu.Unlock()
	j.checkDone()
}

// addNote appends note to the job's Err text.
func addNote(text, note string) string {
	if text == "" {
		return note
	}
	return text + "; " + note
}

// checkDone finishes the job once its tree is empty and its output read.
func (j *job) checkDone() {
	j.mu.Lock()
	ready := !j.done && j.treeEmpty && j.streams == 0
	j.mu.Unlock()
	if ready {
		j.finish()
	}
}

// finish marks the job done (once), compacts its ring and lets the table
// drop old finished jobs.
func (j *job) finish() {
	j.mu.Lock()
	if j.done {
		j.mu.Unlock()
		return
	}
	j.done = true
	j.finishAt = time.Now()
	j.mu.Unlock()
	j.ring.compact()
	close(j.doneCh)
	j.changedState()
	j.t.lives.Done()
	j.t.finished()
}

// stop asks the supervisor for the stop sequence with the given grace
// (zero: SIGKILL at once), on behalf of by. Asking again with a shorter
// grace shortens a running stop; the first asker stays recorded. It
// reports whether this call began the stop (false: the job was already
// stopping, or is over).
func (j *job) stop(grace time.Duration, by string) bool {
	j.mu.Lock()
	h := j.h
	if j.done || h == nil || j.treeEmpty {
		j.mu.Unlock()
		return false
	}
	began := j.stopInfo == nil
	if began {
		j.stopInfo = &model.Stop{At: time.Now(), Grace: grace, By: by}
		if j.state == model.StateRunning {
			j.state = model.StateStopping
		}
	} else if grace < j.stopInfo.Grace {
		j.stopInfo.Grace = grace
		j.stopInfo.Hastened = by
		if by == "" {
			j.stopInfo.Hastened = "another stop"
		}
	}
	j.mu.Unlock()
	_ = h.Stop(grace) // fails only when the supervisor is already gone
	j.changedState()
	return began
}

// closeControl closes the supervisor's control pipe (jobdeck is leaving).
func (j *job) closeControl() {
	j.mu.Lock()
	h := j.h
	j.mu.Unlock()
	if h != nil {
		_ = h.Close()
	}
}

func (j *job) isDone() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.done
}

func (j *job) doneAt() time.Time {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.finishAt
}

// snapshot copies the job's state.
func (j *job) snapshot() model.Snapshot {
	st := j.ring.stats()
	j.mu.Lock()
	defer j.mu.Unlock()
	s := model.Snapshot{
		ID: j.id, Name: j.spec.Name, Command: j.spec.Command, Dir: j.spec.Dir,
		Owner: j.spec.Owner, TTY: !j.spec.NoTTY, State: j.state, PID: j.pid,
		Started: j.started, Ended: j.ended, Remaining: j.remaining,
		Done: j.done, Err: j.errMsg, Cgroup: j.cgroup, OOMKills: j.oomKills,
		Lines: st.last, Bytes: st.bytes, FirstSeq: st.first, DroppedBytes: st.droppedBytes,
		Notes: slices.Clone(j.notes),
	}
	s.Ports, s.PortConflict = j.portInfo.get(j.treeEmpty)
	if j.restartOf != nil {
		prev := *j.restartOf
		s.RestartOf = &prev
	}
	if j.state == model.StateFailed {
		s.Started = time.Time{}
	}
	if j.exit != nil {
		e := *j.exit
		s.Exit = &e
	}
	if j.stopInfo != nil {
		si := *j.stopInfo
		s.Stop = &si
	}
	return s
}

// waitChan returns the channel closed at the job's next change.
func (j *job) waitChan() <-chan struct{} {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.changed
}
