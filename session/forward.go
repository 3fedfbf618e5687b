//go:build unix

package session

import (
	"context"
	"sync"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// forwarder carries the core's events to one console without ever making
// the core (or anything but this console's own writer) wait: events are
// folded per job and kind while a notification is being written, so what
// is pending is bounded by the number of jobs, and the console is told how
// many were folded. The console re-reads what an event names, so folding
// two state events of one job loses nothing it shows.
type forwarder struct {
	mu      sync.Mutex
	pending []model.Event
	seen    map[model.Event]bool
	merged  int
	clients bool // the attached clients changed
	wake    chan struct{}
}

func newForwarder() *forwarder {
	return &forwarder{seen: map[model.Event]bool{}, wake: make(chan struct{}, 1)}
}

// add takes events from the core (never blocks).
func (f *forwarder) add(evs []model.Event) {
	f.mu.Lock()
	for _, ev := range evs {
		if f.seen[ev] {
			f.merged++
			continue
		}
		f.seen[ev] = true
		f.pending = append(f.pending, ev)
	}
	f.mu.Unlock()
	f.poke()
}

// clientsChanged notes that the client list changed (never blocks).
func (f *forwarder) clientsChanged() {
	f.mu.Lock()
	f.clients = true
	f.mu.Unlock()
	f.poke()
}

func (f *forwarder) poke() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// take empties what is pending.
func (f *forwarder) take() (evs []model.Event, merged int, clients bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	evs, merged, clients = f.pending, f.merged, f.clients
	f.pending, f.merged, f.clients = nil, 0, false
	clear(f.seen)
	return evs, merged, clients
}

// outputGap is the least time between two notifications that carry only
// output events: a flood in 8 jobs publishes an output event per job every
// 10 ms, and the console reads the rings at most once a frame (30 a second
// or fewer), so output that comes within outputGap of the last
// notification waits for the rest of it (folded with what else comes),
// while output after a quiet spell, state events and client changes go at
// once.
const outputGap = 20 * time.Millisecond

// onlyOutput reports whether what is pending is output events only.
func (f *forwarder) onlyOutput() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.clients {
		return false
	}
	for _, ev := range f.pending {
		if ev.Kind != model.EventOutput {
			return false
		}
	}
	return true
}

// hold waits until outputGap has passed since last while only output is
// pending; it returns at once when something else comes, and false when
// ctx ends.
func (f *forwarder) hold(ctx context.Context, last time.Time) bool {
	for f.onlyOutput() {
		d := outputGap - time.Since(last)
		if d <= 0 {
			return true
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-t.C:
			return true
		case <-f.wake:
			t.Stop()
		}
	}
	return true
}

// run writes what is pending to the console as notifications until ctx
// ends or a write fails (the console is gone).
func (f *forwarder) run(ctx context.Context, p *peer, info func() Info) {
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.wake:
		}
		if !f.hold(ctx, last) {
			return
		}
		last = time.Now()
		evs, merged, clients := f.take()
		if clients {
			if p.notifyPeer(ctx, notifyClients, info()) != nil {
				return
			}
		}
		if len(evs) > 0 {
			if p.notifyPeer(ctx, notifyEvents, eventsParams{Events: evs, Merged: merged}) != nil {
				return
			}
		}
	}
}
