package stdio

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"time"
)

// Read-ahead bounds: while calls are held (maxUnanswered), the filter goes
// on reading lines into a queue of at most maxQueuedLines lines and
// maxQueuedBytes bytes (a line of up to MaxLine always fits an empty
// queue), so that it sees
// the input end and the drain rule applies (ARCHITECTURE.md §5: memory is
// bounded whatever a peer sends). Only when the queue is full does it stop
// reading.
const (
	maxQueuedLines = 1024
	maxQueuedBytes = 16 << 20
)

// queued is a line read and not yet passed on.
type queued struct {
	line    []byte // trimmed; nil when tooLong
	tooLong bool   // the line was over MaxLine
}

// lineQueue is the read-ahead between the input and the filter's
// dispatch: fill reads lines into it, next takes them out in order.
type lineQueue struct {
	mu    sync.Mutex
	items []queued
	bytes int
	// passing: the dispatch took a line out and is passing it on; a line
	// read meanwhile queues behind it.
	passing bool
	// direct, when set, passes a line on from fill itself, when nothing
	// is queued or passing and hasRoom tells there is room for it: the
	// common case costs no hand-off between goroutines (under a flood
	// that hand-off doubled a call's time). It returns false when the
	// session stopped reading (then fill stops, as the dispatch would).
	direct  func(queued) bool
	hasRoom func() bool
	failed  bool          // direct found the session gone
	ended   chan struct{} // closed when the input has ended (EOF or error)
	more    chan struct{} // 1-buffered: a line was queued, or the input ended
	room    chan struct{} // 1-buffered: a line was taken out
}

func newLineQueue() *lineQueue {
	return &lineQueue{ended: make(chan struct{}), more: make(chan struct{}, 1), room: make(chan struct{}, 1)}
}

// poke sends on a 1-buffered wake-up channel without blocking.
func poke(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// fill reads the lines of in into q until in ends (then it closes
// q.ended), or stop is closed while it waits for room.
func (q *lineQueue) fill(in io.Reader, stop <-chan struct{}) {
	r := bufio.NewReaderSize(in, 64<<10)
	var buf []byte
	for {
		line, err := readFrame(r, buf[:0])
		buf = line
		tooLong := errors.Is(err, errFrameTooLong)
		if t := trimJSON(line); len(t) > 0 || tooLong {
			if passed, alive := q.tryDirect(t, tooLong); !alive {
				q.mu.Lock()
				q.failed = true
				q.mu.Unlock()
				close(q.ended)
				poke(q.more)
				return
			} else if !passed && !q.push(queued{line: bytes.Clone(t), tooLong: tooLong}, stop) {
				return
			}
		}
		if err != nil && !tooLong {
			close(q.ended)
			poke(q.more)
			return
		}
	}
}

// tryDirect passes line on at once through q.direct when nothing is
// queued or passing and there is room; passed tells whether it did, alive
// whether the session still reads.
func (q *lineQueue) tryDirect(line []byte, tooLong bool) (passed, alive bool) {
	if q.direct == nil {
		return false, true
	}
	q.mu.Lock()
	ok := len(q.items) == 0 && !q.passing && q.hasRoom()
	q.mu.Unlock()
	if !ok {
		return false, true
	}
	// Only fill queues lines, and the dispatch is idle: nothing can pass
	// between this line and the one before it.
	if !q.direct(queued{line: line, tooLong: tooLong}) {
		return true, false
	}
	return true, true
}

// push queues it once there is room; false when stop is closed first.
func (q *lineQueue) push(it queued, stop <-chan struct{}) bool {
	for {
		q.mu.Lock()
		if len(q.items) == 0 || (len(q.items) < maxQueuedLines && q.bytes+len(it.line) <= maxQueuedBytes) {
			q.items = append(q.items, it)
			q.bytes += len(it.line)
			q.mu.Unlock()
			poke(q.more)
			return true
		}
		q.mu.Unlock()
		select {
		case <-q.room:
		case <-stop:
			return false
		}
	}
}

// passed ends the pass of the line next took out.
func (q *lineQueue) passed() {
	q.mu.Lock()
	q.passing = false
	q.mu.Unlock()
}

// next takes out the oldest line, waiting for one; false once the input
// has ended and every line is taken, or when ctx ends.
func (q *lineQueue) next(ctx context.Context) (queued, bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			it := q.items[0]
			q.items[0] = queued{}
			q.items = q.items[1:]
			q.bytes -= len(it.line)
			q.passing = true
			q.mu.Unlock()
			poke(q.room)
			return it, true
		}
		q.mu.Unlock()
		select {
		case <-q.ended:
			// Lines queued before the end are taken first.
			q.mu.Lock()
			n := len(q.items)
			q.mu.Unlock()
			if n == 0 {
				return queued{}, false
			}
		case <-q.more:
		case <-ctx.Done():
			return queued{}, false
		}
	}
}

// stallTimeout is how long the drain, once the waits were cut, goes on
// while no call is answered and some are still unanswered.
const stallTimeout = 2 * time.Second

// afterEOF applies the drain rule: DrainTimeout after the input ended
// (ended closed) it cuts the waits of the calls still running or queued
// (cutWaits), so that they answer at once; from then on, once stallTimeout
// passes with no call answered while some are still unanswered, it gives
// up: the returned context ends (as it does with ctx, or cancel).
func (f *Filter) afterEOF(ctx context.Context, ended <-chan struct{}, cutWaits func()) (context.Context, context.CancelFunc) {
	giveUp, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-ended:
		case <-giveUp.Done():
			return
		}
		t := time.NewTimer(DrainTimeout)
		defer t.Stop()
		select {
		case <-t.C:
		case <-giveUp.Done():
			return
		}
		cutWaits()
		last := f.answered()
		for {
			t.Reset(stallTimeout)
			select {
			case <-t.C:
			case <-giveUp.Done():
				return
			}
			n := f.answered()
			if n == last {
				cancel()
				return
			}
			last = n
		}
	}()
	return giveUp, cancel
}

// answered is how many answers have been written out.
func (f *Filter) answered() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.answers
}

// errFrameTooLong reports a line longer than MaxLine.
var errFrameTooLong = errors.New("message longer than 16 MiB")

// readFrame reads one line (without its newline) into buf. A line longer
// than MaxLine is skipped to its end and reported as errFrameTooLong.
func readFrame(r *bufio.Reader, buf []byte) ([]byte, error) {
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > MaxLine+1 {
				tooLong, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && !tooLong:
			return buf, err
		case err != nil:
			return nil, err
		case tooLong:
			return nil, errFrameTooLong
		}
		return bytes.TrimRight(buf, "\r\n"), nil
	}
}
