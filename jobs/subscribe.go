package jobs

import (
	"context"
	"sync"

	"github.com/jobdeck/jobdeck/model"
)

// Subscription receives the events of a Table. State events are kept until
// read (never lost); output events are coalesced to one per job while
// unread. Delivery never blocks the core.
type Subscription struct {
	t      *Table
	wake   chan struct{}
	mu     sync.Mutex
	queue  []model.Event
	output map[model.JobID]bool // jobs with an output event in queue
	closed bool
}

// Subscribe returns a new subscription to every job's events. Close it when
// done.
func (t *Table) Subscribe() *Subscription {
	s := &Subscription{t: t, wake: make(chan struct{}, 1), output: map[model.JobID]bool{}}
	t.subMu.Lock()
	t.subs[s] = struct{}{}
	t.subMu.Unlock()
	return s
}

// C is signalled (1-buffered, never blocks the core) when events are waiting
// to be taken with Events.
func (s *Subscription) C() <-chan struct{} { return s.wake }

// Events takes the waiting events, oldest first; nil when there are none.
func (s *Subscription) Events() []model.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queue
	s.queue = nil
	clear(s.output)
	return q
}

// Wait blocks until events are waiting and takes them. It returns ctx's
// error when ctx ends first, and ErrClosed once the subscription or the
// table is closed.
func (s *Subscription) Wait(ctx context.Context) ([]model.Event, error) {
	for {
		if ev := s.Events(); len(ev) > 0 {
			return ev, nil
		}
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return nil, ErrClosed
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.wake:
		}
	}
}

// Close ends the subscription; a blocked Wait returns ErrClosed.
func (s *Subscription) Close() {
	s.t.subMu.Lock()
	delete(s.t.subs, s)
	s.t.subMu.Unlock()
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.signal()
}

func (s *Subscription) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// deliver queues ev; output events for a job already queued are dropped.
func (s *Subscription) deliver(ev model.Event) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if ev.Kind == model.EventOutput {
		if s.output[ev.Job] {
			s.mu.Unlock()
			return
		}
		s.output[ev.Job] = true
	}
	s.queue = append(s.queue, ev)
	s.mu.Unlock()
	s.signal()
}

// publish fans ev out to every subscriber. It must be called without any
// job lock held.
func (t *Table) publish(ev model.Event) {
	t.subMu.Lock()
	subs := make([]*Subscription, 0, len(t.subs))
	for s := range t.subs {
		subs = append(subs, s)
	}
	t.subMu.Unlock()
	for _, s := range subs {
		s.deliver(ev)
	}
}
