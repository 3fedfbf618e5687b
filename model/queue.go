package model

import (
	"context"
	"sync"
)

// EventQueue holds one subscriber's events under the core's delivery
// contract: state events (every kind but EventOutput) are kept until taken,
// never dropped; an EventOutput is dropped while one for the same job
// waits untaken, so a flood costs one queued event per job however many
// lines it prints. Push never blocks: C is 1-buffered and signalled with a
// non-blocking send. The jobs core's subscriptions use it, and so do fakes
// of the core, so that they deliver alike. Its methods are safe for
// concurrent use; the zero value is not usable (NewEventQueue).
type EventQueue struct {
	wake   chan struct{}
	mu     sync.Mutex
	queue  []Event
	output map[JobID]bool // jobs with an output event in queue
	closed bool
}

// NewEventQueue returns an empty, open queue.
func NewEventQueue() *EventQueue {
	return &EventQueue{wake: make(chan struct{}, 1), output: map[JobID]bool{}}
}

// C is signalled when events are waiting to be taken, and on Close.
func (q *EventQueue) C() <-chan struct{} { return q.wake }

// Push queues ev (see the contract above); after Close it does nothing.
func (q *EventQueue) Push(ev Event) {
	q.mu.Lock()
	if q.closed || (ev.Kind == EventOutput && q.output[ev.Job]) {
		q.mu.Unlock()
		return
	}
	if ev.Kind == EventOutput {
		q.output[ev.Job] = true
	}
	q.queue = append(q.queue, ev)
	q.mu.Unlock()
	q.signal()
}

// Take takes the waiting events, oldest first; nil when there are none.
func (q *EventQueue) Take() []Event {
	q.mu.Lock()
	defer q.mu.Unlock()
	evs := q.queue
	q.queue = nil
	clear(q.output)
	return evs
}

// Wait blocks until events are waiting and takes them. It returns ctx's
// error when ctx ends first, and ErrClosed once the queue is closed and
// empty.
func (q *EventQueue) Wait(ctx context.Context) ([]Event, error) {
	for {
		if evs := q.Take(); len(evs) > 0 {
			return evs, nil
		}
		q.mu.Lock()
		closed := q.closed
		q.mu.Unlock()
		if closed {
			return nil, ErrClosed
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-q.wake:
		}
	}
}

// Close closes the queue: a blocked Wait returns ErrClosed once what was
// queued is taken, and later events are dropped. It is idempotent.
func (q *EventQueue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.signal()
}

func (q *EventQueue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}
