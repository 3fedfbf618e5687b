package process

import (
	"os"
	"sync"
	"time"

	"github.com/jobdeck/jobdeck/supervisor/wire"
)

// emitter writes the supervisor's events to the event pipe from a goroutine
// of its own, so that the supervisor's loop never waits for jobdeck to read:
// a stop goes on even when jobdeck stalls or is gone. Consecutive
// "remaining" events still queued are merged into the newest.
type emitter struct {
	f    *os.File
	wake chan struct{}
	done chan struct{}

	mu      sync.Mutex
	queue   []wire.Event
	closing bool
}

func newEmitter(f *os.File) *emitter {
	e := &emitter{f: f, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go e.run()
	return e
}

// emit queues w, stamped with the current time.
func (e *emitter) emit(w wire.Event) {
	w.T = time.Now().UnixNano()
	e.mu.Lock()
	if n := len(e.queue); n > 0 && w.Ev == wire.EvRemaining && e.queue[n-1].Ev == wire.EvRemaining {
		e.queue[n-1] = w
	} else {
		e.queue = append(e.queue, w)
	}
	e.mu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// run writes queued events until close. After a write error (jobdeck is
// gone: EPIPE) it drops events instead of writing them.
func (e *emitter) run() {
	defer close(e.done)
	broken := false
	for {
		e.mu.Lock()
		q, closing := e.queue, e.closing
		e.queue = nil
		e.mu.Unlock()
		for _, w := range q {
			if !broken && wire.WriteLine(e.f, w) != nil {
				broken = true
			}
		}
		if len(q) == 0 {
			if closing {
				e.f.Close()
				return
			}
			<-e.wake
		}
	}
}

// close writes what is queued, closes the pipe and returns; it gives up
// after wait when jobdeck does not read.
func (e *emitter) close(wait time.Duration) {
	e.mu.Lock()
	e.closing = true
	e.mu.Unlock()
	select {
	case e.wake <- struct{}{}:
	default:
	}
	select {
	case <-e.done:
	case <-time.After(wait):
	}
}
