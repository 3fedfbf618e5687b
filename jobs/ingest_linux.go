//go:build linux

package jobs

import (
	"os"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// maxIngesters bounds the ingest goroutines of a Table whatever the
// number of CPUs (a Table has at most 16 streams: MaxRunning jobs, two
// each).
const maxIngesters = 4

// ingestWant is how many ingest goroutines a Table starts at most: one
// per P (GOMAXPROCS), at most maxIngesters. On 2 cores, two loops
// measured better than one both for a call's p99 while 8 jobs flood
// (BenchmarkStatus50) and for the time to read 8 floods
// (BenchmarkIngest8); four made the p99 worse.
func ingestWant() int { return min(maxIngesters, runtime.GOMAXPROCS(0)) }

// yieldEvery is how long an ingest loop runs at most before it lets the
// scheduler run the goroutines waiting for its P (runtime.Gosched). Under
// a flood a loop never parks, and without it a goroutine readied on its
// P (a tool call's handler, a console's fetch) waited until the runtime
// preempted the loop, 10 ms later; with it, a call waits at most this
// long at each hand-off between its goroutines (ARCHITECTURE.md §4; the
// figures are in docs/performance.md).
const yieldEvery = 250 * time.Microsecond

// ingestPool is a Table's ingest goroutines, each with its own epoll
// instance (epoll(7)), started as streams need them. Its zero value is
// unusable: set wg.
type ingestPool struct {
	wg      *sync.WaitGroup // the Table's goroutines: every loop is one of them
	mu      sync.Mutex      // guards the fields below
	all     []*ingester
	closing bool // the Table is closing: no new stream, a loop ends with its last one
}

// ingester is one ingest goroutine: its epoll instance, itself in Go's
// netpoller (an epoll fd is readable while events are ready), so that an
// idle loop holds no OS thread; level-triggered, so a stream read only in
// part this round is reported again the next.
type ingester struct {
	pool    *ingestPool
	ep      *os.File // the epoll instance; closed to end the loop
	fd      int      // ep's descriptor, for epoll_ctl while !closed
	mu      sync.Mutex
	streams map[int32]*epollStream // by descriptor; guarded by mu
	closed  bool                   // ep is closed; guarded by mu
}

// epollStream is a stream in an ingester's epoll set: what the loop reads
// when epoll reports its descriptor ready.
type epollStream struct {
	stream
	fd       int
	flags    int           // the descriptor's file status flags before (F_GETFL)
	done     chan struct{} // closed when the ingester let go of the stream
	fallback bool          // set before done: the stream is not at its end, read it another way
}

// read has an ingest goroutine read f into st's ring and returns true
// once f is at its end; false when no ingest goroutine takes f (the Table
// is closing, epoll failed, f is not a descriptor that epoll polls, such
// as a regular file) or one let go of it before its end: then the caller
// reads the rest. f must stay open until read returns.
func (p *ingestPool) read(f *os.File, st stream) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	in := p.pick()
	if in == nil {
		return false
	}
	var ps *epollStream
	if err := rc.Control(func(fd uintptr) { ps = in.add(int(fd), st) }); err != nil || ps == nil {
		in.closeIfIdle()
		return false
	}
	<-ps.done
	return !ps.fallback
}

// pick returns the ingester with the fewest streams, starting a new one
// while there are fewer than ingestWant and each has a stream; nil when
// the pool is closing or no epoll instance can be made.
func (p *ingestPool) pick() *ingester {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closing {
		return nil
	}
	var best *ingester
	least := -1
	for _, in := range p.all {
		in.mu.Lock()
		n, closed := len(in.streams), in.closed
		in.mu.Unlock()
		if !closed && (least < 0 || n < least) {
			best, least = in, n
		}
	}
	if best != nil && (least == 0 || len(p.all) >= ingestWant()) {
		return best
	}
	in, err := newIngester(p)
	if err != nil {
		return best
	}
	p.all = append(p.all, in)
	p.wg.Go(in.loop)
	return in
}

// close stops the pool: no new streams; each ingester ends now if it has
// none, or after its last.
func (p *ingestPool) close() {
	p.mu.Lock()
	p.closing = true
	all := append([]*ingester(nil), p.all...)
	p.mu.Unlock()
	for _, in := range all {
		in.closeIfIdle()
	}
}

// isClosing tells whether close was called.
func (p *ingestPool) isClosing() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closing
}

// newIngester makes an epoll instance in Go's netpoller.
func newIngester(p *ingestPool) (*ingester, error) {
	fd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return nil, err
	}
	ep := os.NewFile(uintptr(fd), "jobs-ingest-epoll")
	// A file outside the netpoller has no deadlines: refuse it, the loop
	// could not park on it.
	if err := ep.SetReadDeadline(time.Time{}); err != nil {
		ep.Close()
		return nil, err
	}
	return &ingester{pool: p, ep: ep, fd: fd, streams: map[int32]*epollStream{}}, nil
}

// add puts descriptor fd, non-blocking from now on, in the epoll set;
// nil when it cannot (its flags are then as they were).
func (in *ingester) add(fd int, st stream) *epollStream {
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return nil
	}
	// Non-blocking before the loop can see it: a read of the loop must
	// never block it.
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFL, flags|unix.O_NONBLOCK); err != nil {
		return nil
	}
	ps := &epollStream{stream: st, fd: fd, flags: flags, done: make(chan struct{})}
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.closed {
		in.streams[int32(fd)] = ps
		if err = unix.EpollCtl(in.fd, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(fd)}); err == nil {
			return ps
		}
		delete(in.streams, int32(fd))
	}
	_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFL, flags)
	return nil
}

// loop reads the streams that epoll reports ready, each up to readBuf
// bytes a round so that a flood cannot starve the other jobs, until ep
// is closed.
func (in *ingester) loop() {
	rc, err := in.ep.SyscallConn()
	if err != nil {
		in.abandon()
		return
	}
	events := make([]unix.EpollEvent, 64)
	buf := make([]byte, readBuf)
	lastYield := time.Now()
	for {
		var n int
		var werr error
		err := rc.Read(func(fd uintptr) bool {
			n, werr = unix.EpollWait(int(fd), events, 0)
			// Nothing ready: park in the netpoller until something is.
			return n > 0 || werr != nil
		})
		if err != nil {
			// ep closed: the pool closed it with no stream left.
			in.abandon()
			return
		}
		if werr == unix.EINTR {
			continue
		}
		if werr != nil {
			in.abandon()
			return
		}
		for _, ev := range events[:n] {
			in.mu.Lock()
			ps := in.streams[ev.Fd]
			in.mu.Unlock()
			if ps != nil {
				in.drain(ps, buf)
			}
		}
		if now := time.Now(); now.Sub(lastYield) >= yieldEvery {
			runtime.Gosched()
			lastYield = now
		}
	}
}

// drain reads ps until it would block or readBuf bytes were read; at its
// end (EOF, or an error such as a pty master's EIO once the last writer
// is gone) it lets go of ps.
func (in *ingester) drain(ps *epollStream, buf []byte) {
	got, ended, dry := 0, false, false
	for got < readBuf && !ended && !dry {
		n, err := unix.Read(ps.fd, buf)
		switch {
		case n > 0:
			got += n
			ps.r.write(ps.s, buf[:n], time.Now())
		case err == unix.EINTR:
		case err == unix.EAGAIN:
			dry = true
		default: // EOF, or an error such as the pty's EIO
			ended = true
		}
	}
	if got > 0 {
		poke(ps.activity)
	}
	if ended {
		in.release(ps, false)
		in.closeIfIdle()
	}
}

// release takes ps out of the epoll set, gives the descriptor its flags
// back and tells read (done); fallback: ps is not at its end.
func (in *ingester) release(ps *epollStream, fallback bool) {
	in.mu.Lock()
	if !in.closed {
		_ = unix.EpollCtl(in.fd, unix.EPOLL_CTL_DEL, ps.fd, nil)
	}
	delete(in.streams, int32(ps.fd))
	in.mu.Unlock()
	_, _ = unix.FcntlInt(uintptr(ps.fd), unix.F_SETFL, ps.flags)
	ps.fallback = fallback
	close(ps.done)
}

// abandon lets go of every stream still in the set, not at its end (the
// loop is ending): their readers read on by themselves.
func (in *ingester) abandon() {
	in.mu.Lock()
	left := make([]*epollStream, 0, len(in.streams))
	for _, ps := range in.streams {
		left = append(left, ps)
	}
	in.mu.Unlock()
	for _, ps := range left {
		in.release(ps, true)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.closed {
		in.closed = true
		in.ep.Close()
	}
}

// closeIfIdle ends the loop when the pool is closing and in has no
// stream.
func (in *ingester) closeIfIdle() {
	if !in.pool.isClosing() {
		return
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.closed && len(in.streams) == 0 {
		in.closed = true
		in.ep.Close()
	}
}
