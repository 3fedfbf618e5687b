package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// fakeCore is an in-memory Core for tests and benchmarks: jobs are
// snapshots plus a ring of lines; nothing runs. It follows the jobs core's
// Read contract (cursor, Tail, Limit, Dropped, Skipped, More, Partial).
type fakeCore struct {
	mu   sync.Mutex
	jobs []*fakeJob
	subs []*fakeSub
	now  func() time.Time

	startErr   error              // the next Start fails with it
	restartErr error              // the next Restart fails with it
	killGate   chan struct{}      // when set, Kill waits for it to close
	started    []string           // commands Start was called with
	names      []string           // their Spec.Name
	owners     []string           // their Spec.Owner
	killed     []string           // IDs Kill was called with
	killedBy   []string           // their KillOptions.By
	restarts   []string           // IDs Restart was called with
	removes    []string           // IDs Remove was called with
	clears     int                // Clear calls
	statused   []string           // IDs Status was called with
	lists      int                // List calls
	reads      int                // Read calls
	lost       bool               // List and Read fail as if the link were lost
	session    *model.SessionInfo // Session's answer; nil: a private core

	startSizes []model.TermSize // the Spec.Size of each Start
	readManys  int              // ReadMany calls
	frames     int              // Frame calls
	greps      []string         // the Grep of each status request that had one
	afterGrep  func()           // runs after each grep (a flood meanwhile)
	resized    []resizeReq      // Resize calls, in order
}

type fakeJob struct {
	snap    model.Snapshot
	ring    []model.Line // oldest first, contiguous seqs
	ringCap int
	partial []model.Line
	last    uint64 // seq of the newest complete line
	bytes   int64  // bytes "printed" (Snapshot.Bytes)
	removed bool   // Remove or Clear took it out of the list
}

func newFakeCore(now func() time.Time) *fakeCore { return &fakeCore{now: now} }

// add puts a job in the table as given (ID assigned) and returns its ID.
func (c *fakeCore) add(s model.Snapshot, ringCap int) model.JobID {
	c.mu.Lock()
	s.ID = model.JobID(len(c.jobs))
	if ringCap <= 0 {
		ringCap = 2000
	}
	c.jobs = append(c.jobs, &fakeJob{snap: s, ringCap: ringCap})
	c.mu.Unlock()
	c.publish(model.Event{Kind: model.EventStarted, Job: s.ID})
	return s.ID
}

// emit appends complete lines to a job's ring, evicting the oldest past its
// cap, and publishes one output event.
func (c *fakeCore) emit(id model.JobID, stream model.Stream, lines ...string) {
	c.mu.Lock()
	j := c.jobs[id]
	for _, l := range lines {
		j.last++
		j.ring = append(j.ring, model.Line{Seq: j.last, Stream: stream, Text: []byte(l), Time: c.now()})
	}
	if over := len(j.ring) - j.ringCap; over > 0 {
		j.ring = append(j.ring[:0:0], j.ring[over:]...)
	}
	c.mu.Unlock()
	c.publish(model.Event{Kind: model.EventOutput, Job: id})
}

// emitN appends n generated lines cheaply (benchmarks and floods).
func (c *fakeCore) emitN(id model.JobID, stream model.Stream, n int, gen func(seq uint64) []byte) {
	c.mu.Lock()
	j := c.jobs[id]
	for range n {
		j.last++
		j.ring = append(j.ring, model.Line{Seq: j.last, Stream: stream, Text: gen(j.last)})
	}
	if over := len(j.ring) - j.ringCap; over > 0 {
		// Slide the window in place (amortised: the backing array
		// grows to twice the cap, then the kept lines move down).
		if cap(j.ring) >= 2*j.ringCap {
			copy(j.ring, j.ring[over:])
			j.ring = j.ring[:j.ringCap]
		} else {
			j.ring = j.ring[over:]
		}
	}
	c.mu.Unlock()
	c.publish(model.Event{Kind: model.EventOutput, Job: id})
}

// setPartial sets a job's open (unterminated) line on one stream.
func (c *fakeCore) setPartial(id model.JobID, stream model.Stream, text string) {
	c.mu.Lock()
	j := c.jobs[id]
	j.partial = []model.Line{{Seq: j.last + 1, Stream: stream, Text: []byte(text), Partial: true}}
	j.bytes += int64(len(text))
	c.mu.Unlock()
	c.publish(model.Event{Kind: model.EventOutput, Job: id})
}

// update changes a job's snapshot and publishes a state event.
func (c *fakeCore) update(id model.JobID, f func(*model.Snapshot)) {
	c.mu.Lock()
	f(&c.jobs[id].snap)
	c.mu.Unlock()
	c.publish(model.Event{Kind: model.EventState, Job: id})
}

func (j *fakeJob) snapshot() model.Snapshot {
	s := j.snap
	s.Lines = j.last
	s.Bytes = j.bytes + int64(j.last) // a line's newline counts
	if len(j.ring) > 0 {
		s.FirstSeq = j.ring[0].Seq
	}
	return s
}

func (c *fakeCore) List(context.Context) ([]model.Snapshot, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lists++
	if c.lost {
		return nil, errLost
	}
	out := make([]model.Snapshot, 0, len(c.jobs))
	for _, j := range c.jobs {
		if !j.removed {
			out = append(out, j.snapshot())
		}
	}
	return out, nil
}

// errLost is what a fake core whose link was lost returns.
var errLost = fmt.Errorf("%w: the session went away", model.ErrUnavailable)

// snap returns job id's snapshot (for tests; not part of Core).
func (c *fakeCore) snap(id model.JobID) (model.Snapshot, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if int(id) < 0 || int(id) >= len(c.jobs) || c.jobs[id].removed {
		return model.Snapshot{}, false
	}
	return c.jobs[id].snapshot(), true
}

func (c *fakeCore) Read(_ context.Context, id model.JobID, req model.ReadRequest) (model.Page, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads++
	if c.lost {
		return model.Page{}, errLost
	}
	if int(id) < 0 || int(id) >= len(c.jobs) || c.jobs[id].removed {
		return model.Page{}, fmt.Errorf("read job %d: %w", id, model.ErrNotFound)
	}
	j := c.jobs[id]
	p := model.Page{Last: j.last, Next: req.After}
	first := j.last + 1
	if len(j.ring) > 0 {
		first = j.ring[0].Seq
	}
	if req.After+1 < first {
		p.Dropped = first - (req.After + 1)
	}
	// The ring is contiguous: lines after the cursor start at an index.
	start := 0
	if len(j.ring) > 0 && req.After >= first {
		start = int(min(req.After-first+1, uint64(len(j.ring))))
	}
	cands := j.ring[start:]
	if req.Limit > 0 && len(cands) > req.Limit {
		if req.Tail {
			p.Skipped = uint64(len(cands) - req.Limit)
			cands = cands[len(cands)-req.Limit:]
		} else {
			p.More = uint64(len(cands) - req.Limit)
			cands = cands[:req.Limit]
		}
	}
	p.Lines = append([]model.Line(nil), cands...)
	if len(cands) > 0 {
		p.Next = cands[len(cands)-1].Seq
	}
	if !req.NoPartial {
		p.Partial = j.partial
	}
	return p, nil
}

func (c *fakeCore) Start(ctx context.Context, spec model.Spec) (model.Report, error) {
	c.mu.Lock()
	c.started = append(c.started, spec.Command)
	c.names = append(c.names, spec.Name)
	c.owners = append(c.owners, spec.Owner)
	c.startSizes = append(c.startSizes, spec.Size)
	err := c.startErr
	c.startErr = nil
	c.mu.Unlock()
	if err != nil {
		return model.Report{}, err
	}
	if spec.Name != "" {
		list, _ := c.List(ctx)
		for _, s := range list {
			if s.Live() && strings.EqualFold(s.Name, spec.Name) {
				return model.Report{}, fmt.Errorf("%w: the name %q belongs to running job %s: pick another name, or stop that job first", model.ErrDuplicate, spec.Name, s.Label())
			}
		}
	}
	id := c.add(model.Snapshot{Command: spec.Command, Name: spec.Name, Owner: spec.Owner, State: model.StateRunning, Started: c.now(), TTY: true}, 0)
	s, _ := c.snap(id)
	return model.Report{Job: s}, nil
}

func (c *fakeCore) Kill(ctx context.Context, id model.JobID, opts model.KillOptions) (model.Report, error) {
	c.mu.Lock()
	c.killed = append(c.killed, id.String())
	c.killedBy = append(c.killedBy, opts.By)
	gate := c.killGate
	c.mu.Unlock()
	if _, ok := c.snap(id); !ok {
		return model.Report{}, fmt.Errorf("%w: %d (see the job list for IDs)", model.ErrNotFound, id)
	}
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return model.Report{}, ctx.Err()
		}
	}
	c.update(id, func(s *model.Snapshot) {
		if s.Exit == nil {
			s.State, s.Exit, s.Ended = model.StateExited, &model.Exit{Signal: 15}, c.now()
		}
		s.Remaining, s.Done = 0, true
	})
	snap, _ := c.snap(id)
	return model.Report{Job: snap}, nil
}

// Restart ends a live job as Kill does (SIGTERM) and adds its new run;
// a job being stopped is refused, as the jobs core refuses it.
func (c *fakeCore) Restart(ctx context.Context, id model.JobID, opts model.RestartOptions) (model.Report, error) {
	c.mu.Lock()
	c.restarts = append(c.restarts, id.String())
	err := c.restartErr
	c.restartErr = nil
	c.mu.Unlock()
	if err != nil {
		return model.Report{}, err
	}
	old, ok := c.snap(id)
	switch {
	case !ok:
		return model.Report{}, fmt.Errorf("%w: %d (see the job list for IDs)", model.ErrNotFound, id)
	case old.Stop != nil && old.Live():
		return model.Report{}, fmt.Errorf("%w: job %s is being stopped: restart it once it ended", model.ErrRunning, old.Label())
	}
	if old.Live() {
		c.update(id, func(s *model.Snapshot) {
			s.State, s.Exit, s.Ended, s.Done = model.StateExited, &model.Exit{Signal: 15}, c.now(), true
			s.Stop = &model.Stop{At: c.now(), By: opts.By, Done: c.now()}
		})
	}
	prev := id
	nid := c.add(model.Snapshot{Command: old.Command, Name: old.Name, Dir: old.Dir, Owner: opts.By, State: model.StateRunning,
		Started: c.now(), TTY: true, RestartOf: &prev}, 0)
	s, _ := c.snap(nid)
	return model.Report{Job: s}, nil
}

// Remove takes a finished job out of the list.
func (c *fakeCore) Remove(_ context.Context, id model.JobID) error {
	c.mu.Lock()
	c.removes = append(c.removes, id.String())
	c.mu.Unlock()
	s, ok := c.snap(id)
	switch {
	case !ok:
		return fmt.Errorf("%w: %d (see the job list for IDs)", model.ErrNotFound, id)
	case s.Live():
		return fmt.Errorf("%w: job %s is still running: stop it first, then remove it", model.ErrRunning, s.Label())
	}
	c.mu.Lock()
	c.jobs[id].removed = true
	c.mu.Unlock()
	c.publish(model.Event{Kind: model.EventRemoved, Job: id})
	return nil
}

// Clear removes every finished job.
func (c *fakeCore) Clear(ctx context.Context) ([]model.JobID, error) {
	c.mu.Lock()
	c.clears++
	var done []model.JobID
	for _, j := range c.jobs {
		if s := j.snapshot(); !j.removed && !s.Live() {
			done = append(done, s.ID)
		}
	}
	c.mu.Unlock()
	for _, id := range done {
		if err := c.Remove(ctx, id); err != nil {
			return nil, err
		}
	}
	return done, nil
}

func (c *fakeCore) Status(ctx context.Context, id model.JobID, opts model.StatusOptions) (model.Report, error) {
	c.mu.Lock()
	c.statused = append(c.statused, id.String())
	c.mu.Unlock()
	snap, ok := c.snap(id)
	if !ok {
		return model.Report{}, fmt.Errorf("%w: %d (see the job list for IDs)", model.ErrNotFound, id)
	}
	n := opts.Lines
	if n == 0 {
		n = model.DefaultStatusLines
	}
	if opts.Grep != "" {
		return c.grep(id, snap, opts, n)
	}
	page, _ := c.Read(ctx, id, model.ReadRequest{Tail: true, Limit: n})
	return model.Report{Job: snap, Page: page}, nil
}

func (c *fakeCore) Resolve(_ context.Context, sel string) (model.JobID, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, err := strconv.Atoi(sel); err == nil {
		if n >= 0 && n < len(c.jobs) {
			return model.JobID(n), nil
		}
		return 0, fmt.Errorf("%w: %s (see the job list for IDs)", model.ErrNotFound, sel)
	}
	for _, j := range c.jobs {
		if strings.EqualFold(j.snap.Name, sel) {
			return j.snap.ID, nil
		}
	}
	return 0, fmt.Errorf("%w: %s (see the job list for IDs and names)", model.ErrNotFound, sel)
}

func (c *fakeCore) Session(context.Context) (model.SessionInfo, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lost {
		return model.SessionInfo{}, fmt.Errorf("%w: link lost (test)", model.ErrUnavailable)
	}
	if c.session == nil {
		return model.SessionInfo{Private: true}, nil
	}
	return *c.session, nil
}

// setSession makes the fake a shared session's core with these clients
// (self first) and tells subscribers.
func (c *fakeCore) setSession(label string, self model.Client, others ...model.Client) {
	c.mu.Lock()
	c.session = &model.SessionInfo{Label: label, Short: filepath.Base(label), Self: self.ID, Clients: append([]model.Client{self}, others...)}
	c.mu.Unlock()
	c.publish(model.Event{Kind: model.EventSession})
}

func (c *fakeCore) Subscribe(context.Context) (Subscription, error) {
	s := &fakeSub{model.NewEventQueue()}
	c.mu.Lock()
	c.subs = append(c.subs, s)
	c.mu.Unlock()
	return s, nil
}

func (c *fakeCore) publish(ev model.Event) {
	c.mu.Lock()
	subs := append([]*fakeSub(nil), c.subs...)
	c.mu.Unlock()
	for _, s := range subs {
		s.deliver(ev)
	}
}

// fakeSub queues events as the jobs core does (model.EventQueue: output
// coalesced per job, state events kept).
type fakeSub struct{ *model.EventQueue }

func (s *fakeSub) deliver(ev model.Event) { s.Push(ev) }

// take returns the queued events without waiting.
func (s *fakeSub) take() []model.Event { return s.Take() }

func (s *fakeSub) Close() error {
	s.EventQueue.Close()
	return nil
}
