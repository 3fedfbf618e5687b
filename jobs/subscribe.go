package jobs

import (
	"context"

	"github.com/jobdeck/jobdeck/model"
)

// Subscription receives the events of a Table. State events are kept until
// read (never lost); output events are coalesced to one per job while
// unread (model.EventQueue). Delivery never blocks the core.
type Subscription struct {
	t *Table
	q *model.EventQueue
}

// Subscribe returns a new subscription to every job's events. Close it when
// done.
func (t *Table) Subscribe() *Subscription {
	s := &Subscription{t: t, q: model.NewEventQueue()}
	t.subMu.Lock()
	t.subs[s] = struct{}{}
	t.subMu.Unlock()
	return s
}

// C is signalled (1-buffered, never blocks the core) when events are waiting
// to be taken with Events.
func (s *Subscription) C() <-chan struct{} { return s.q.C() }

// Events takes the waiting events, oldest first; nil when there are none.
func (s *Subscription) Events() []model.Event { return s.q.Take() }

// Wait blocks until events are waiting and takes them. It returns ctx's
// error when ctx ends first, and ErrClosed once the subscription or the
// table is closed.
func (s *Subscription) Wait(ctx context.Context) ([]model.Event, error) { return s.q.Wait(ctx) }

// Close ends the subscription; a blocked Wait returns ErrClosed.
func (s *Subscription) Close() {
	s.t.subMu.Lock()
	delete(s.t.subs, s)
	s.t.subMu.Unlock()
	s.q.Close()
}

// deliver queues ev; output events for a job already queued are dropped.
func (s *Subscription) deliver(ev model.Event) { s.q.Push(ev) }

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
