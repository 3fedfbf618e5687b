package model

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"
)

// TestEventQueue: state events are all kept in order, an output event is
// dropped while one for the same job waits (and kept again once taken),
// Wait takes what is queued, and after Close it says ErrClosed and drops
// new events.
func TestEventQueue(t *testing.T) {
	t.Parallel()
	q := NewEventQueue()
	for _, ev := range []Event{{EventOutput, 1}, {EventState, 1}, {EventOutput, 1}, {EventOutput, 2}, {EventState, 1}} {
		q.Push(ev)
	}
	select {
	case <-q.C():
	default:
		t.Fatal("C not signalled")
	}
	want := []Event{{EventOutput, 1}, {EventState, 1}, {EventOutput, 2}, {EventState, 1}}
	if got := q.Take(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Take = %v, want %v", got, want)
	}
	q.Push(Event{EventOutput, 1})
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if got, err := q.Wait(ctx); err != nil || !reflect.DeepEqual(got, []Event{{EventOutput, 1}}) {
		t.Fatalf("Wait after Take = %v, %v: an output event is kept again once taken", got, err)
	}
	short, cancelShort := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancelShort()
	if _, err := q.Wait(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait on an empty queue: %v", err)
	}
	q.Close()
	q.Push(Event{EventState, 3})
	if evs, err := q.Wait(ctx); !errors.Is(err, ErrClosed) || evs != nil {
		t.Fatalf("Wait after Close = %v, %v; want ErrClosed and nothing", evs, err)
	}
}
