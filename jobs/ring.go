package jobs

import (
	"bytes"
	"sync"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// Ring limits (ARCHITECTURE.md §5: memory is bounded whatever a job
// prints).
const (
	// RingLines is how many complete lines a job's ring keeps.
	RingLines = 2000
	// LineCap is the most bytes kept of one line; the rest is counted in
	// Line.Dropped.
	LineCap = 16 << 10
	// RingBytes is the byte budget of one ring: its line bytes never take
	// more than this, whatever the job prints. With lines of LineCap bytes
	// the ring holds RingBytes/LineCap of them (256).
	RingBytes = 4 << 20
	// ringMinArena is the arena's first size; it doubles up to RingBytes as
	// output arrives, so that quiet jobs stay small.
	ringMinArena = 32 << 10
)

// ring is one job's output buffer: the last RingLines complete lines of
// both streams in arrival order, within RingBytes, plus the open (not yet
// terminated) line of each stream.
//
// Writing is cheap whatever the volume: a chunk of output is scanned for
// newlines with the vectorised bytes.Count/IndexByte and copied once into a
// circular byte arena as a "run" of complete lines, and is only split into
// lines when someone reads (materialize). A flood therefore pays per chunk,
// not per line, and lines evicted before anyone read them are only counted.
//
// Lines keep increasing seq numbers; eviction is strictly oldest first, so
// the ring always holds a contiguous range of seqs, and a reader whose
// cursor fell behind is told exactly how many lines it missed.
//
// Carriage returns: text after a bare \r replaces the line ("\r\n" ends a
// line like "\n"), so a progress bar ends as one line. A line longer than
// LineCap keeps its head, cut on a rune boundary, and counts the rest.
type ring struct {
	mu sync.Mutex

	// arena holds run bytes at absolute positions: position a lives at
	// arena[a%len(arena)]. head is the next position to write. A run never
	// wraps: when it would, head skips to the next multiple of
	// len(arena) (the skipped bytes are a gap).
	arena []byte
	head  int64

	// runs are chunks of complete lines not yet split, oldest first.
	// entries are split lines, oldest first, all older than every run.
	runs    deque[run]
	entries deque[entry]
	held    int // lines held: entries plus runs' unskipped lines

	last         uint64 // seq of the newest complete line
	bytesIn      int64  // every byte written
	droppedBytes int64  // bytes cut by LineCap, as far as known
	open         [2]openLine
}

// run is a chunk of complete lines of one stream, stored contiguously in
// the arena and ending with '\n'.
type run struct {
	abs         int64  // arena position of its first byte
	n           int    // length in bytes
	seq         uint64 // seq of its first line
	lines       int    // complete lines in it
	skip        int    // leading lines already evicted
	headLen     int    // bytes of the first line that came from the open line
	headDropped int64  // bytes the first line lost to LineCap before it got here
	time        int64  // unix nanoseconds
	stream      model.Stream
}

// entry is one split line: Text is arena[abs : abs+n].
type entry struct {
	abs     int64
	n       int
	seq     uint64
	dropped int64
	time    int64
	stream  model.Stream
}

// write appends a chunk of one stream's output, read at now.
func (r *ring) write(s model.Stream, p []byte, now time.Time) {
	if len(p) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.bytesIn += int64(len(p))
	o := &r.open[s]
	o.time = now.UnixNano()
	first := bytes.IndexByte(p, '\n')
	if first < 0 {
		before := o.dropped
		o.feed(p)
		r.droppedBytes += max(o.dropped-before, 0)
		return
	}
	last := bytes.LastIndexByte(p, '\n')
	lines := 1 + bytes.Count(p[first+1:last+1], []byte{'\n'})
	var prefix []byte
	if o.active() || o.cr {
		prefix = o.buf
	}
	r.commit(s, prefix, o.cr && len(prefix) > 0, o.dropped, p[:last+1], lines, o.time)
	o.reset()
	if rest := p[last+1:]; len(rest) > 0 {
		o.feed(rest)
		r.droppedBytes += o.dropped
	}
}

// closeStream ends a stream (EOF): its open line becomes a complete line.
func (r *ring) closeStream(s model.Stream, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	o := &r.open[s]
	if !o.active() {
		o.reset()
		return
	}
	r.commit(s, o.buf, o.cr, o.dropped, []byte{'\n'}, 1, now.UnixNano())
	o.reset()
}

// commit stores prefix (+ "\r" when cr) + body as a run; body ends with
// '\n' and holds lines newlines.
func (r *ring) commit(s model.Stream, prefix []byte, cr bool, headDropped int64, body []byte, lines int, t int64) {
	n := len(prefix) + len(body)
	if cr {
		n++
	}
	abs := r.reserve(n)
	off := int(abs % int64(len(r.arena)))
	dst := r.arena[off : off+n]
	k := copy(dst, prefix)
	if cr {
		dst[k] = '\r'
		k++
	}
	copy(dst[k:], body)
	r.runs.push(run{abs: abs, n: n, seq: r.last + 1, lines: lines, headLen: len(prefix), headDropped: headDropped, time: t, stream: s})
	r.last += uint64(lines)
	r.held += lines
	r.evictLines()
}

// evictLines drops the oldest lines beyond RingLines: split lines first,
// then leading lines of runs (whole runs once all their lines are gone).
func (r *ring) evictLines() {
	over := r.held - RingLines
	if over <= 0 {
		return
	}
	if k := min(over, r.entries.len()); k > 0 {
		r.entries.dropFront(k)
		over -= k
		r.held -= k
	}
	for over > 0 && r.runs.len() > 0 {
		f := r.runs.front()
		k := min(over, f.lines-f.skip)
		f.skip += k
		over -= k
		r.held -= k
		if f.skip == f.lines {
			r.runs.popFront()
		}
	}
}

// oldestAbs is the arena position of the oldest byte still referenced.
func (r *ring) oldestAbs() int64 {
	switch {
	case r.entries.len() > 0:
		return r.entries.front().abs
	case r.runs.len() > 0:
		return r.runs.front().abs
	}
	return r.head
}

// reserve returns the arena position for n contiguous bytes, growing the
// arena up to RingBytes before it evicts, and evicting (oldest first)
// whatever the new bytes overwrite.
func (r *ring) reserve(n int) int64 {
	if len(r.arena) == 0 {
		size := ringMinArena
		for size < n {
			size *= 2
		}
		r.arena = newArena(size)
	}
	for {
		start := r.fit(n)
		if start+int64(n)-int64(len(r.arena)) <= r.oldestAbs() || len(r.arena) >= RingBytes {
			break
		}
		// The new bytes would overwrite live lines: grow instead while
		// the budget allows.
		size := len(r.arena) * 2
		for size < n+int(r.head-r.oldestAbs()) {
			size *= 2
		}
		r.relocate(min(size, max(RingBytes, n)))
	}
	start := r.fit(n)
	r.head = start + int64(n)
	limit := r.head - int64(len(r.arena)) // positions below this are overwritten
	for r.entries.len() > 0 && r.entries.front().abs < limit {
		r.entries.popFront()
		r.held--
	}
	if r.entries.len() == 0 {
		for r.runs.len() > 0 && r.runs.front().abs < limit {
			f := r.runs.front()
			r.held -= f.lines - f.skip
			r.runs.popFront()
		}
	}
	return start
}

// fit returns where n bytes would start: head, or the start of the next
// lap when they would not fit before the arena's end.
func (r *ring) fit(n int) int64 {
	size := int64(len(r.arena))
	if off := r.head % size; off+int64(n) > size {
		return r.head + size - off
	}
	return r.head
}

// relocate moves the live bytes into a new arena of size bytes, at its
// start, and renumbers positions so that they stay contiguous.
func (r *ring) relocate(size int) {
	oldest := r.oldestAbs()
	span := int(r.head - oldest)
	na := newArena(size)
	if span > 0 {
		osize := int64(len(r.arena))
		from := int(oldest % osize)
		k := copy(na, r.arena[from:min(from+span, len(r.arena))])
		if k < span {
			copy(na[k:], r.arena[:span-k])
		}
	}
	for i := 0; i < r.entries.len(); i++ {
		r.entries.at(i).abs -= oldest
	}
	for i := 0; i < r.runs.len(); i++ {
		r.runs.at(i).abs -= oldest
	}
	freeArena(r.arena)
	r.arena, r.head = na, int64(span)
}

// free returns the ring's memory; the ring keeps its totals and reads as
// empty afterwards (every line counts as dropped).
func (r *ring) free() {
	r.mu.Lock()
	defer r.mu.Unlock()
	freeArena(r.arena)
	r.arena, r.head = nil, 0
	r.entries.clear()
	r.runs.clear()
	r.held = 0
}

// compact shrinks the arena to what the held lines need; used when a job
// is over, so finished jobs cost only their lines.
func (r *ring) compact() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.arena) == 0 {
		return
	}
	r.materialize()
	span := int(r.head - r.oldestAbs())
	if span == 0 {
		freeArena(r.arena)
		r.arena, r.head = nil, 0
		r.entries.clear()
		return
	}
	// Only worth a copy when it frees at least half the arena.
	if span <= len(r.arena)/2 {
		r.relocate(span)
	}
}
