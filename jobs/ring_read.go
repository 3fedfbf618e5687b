package jobs

// Reading the ring: runs are split into lines only here, when somebody
// reads (see ring).

import (
	"bytes"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// materialize splits every pending run into entries.
func (r *ring) materialize() {
	for r.runs.len() > 0 {
		f := *r.runs.front()
		r.runs.popFront()
		off := int(f.abs % int64(len(r.arena)))
		data := r.arena[off : off+f.n]
		keep := f.lines - f.skip
		start := 0
		if f.skip > 0 {
			pos := len(data) - 1
			for i := 0; i < keep; i++ {
				pos = bytes.LastIndexByte(data[:pos], '\n')
			}
			start = pos + 1
		}
		for i := 0; i < keep; i++ {
			end := start + bytes.IndexByte(data[start:], '\n')
			lo, hi := start, end
			for hi > lo && data[hi-1] == '\r' {
				hi--
			}
			var dropped int64
			if k := lastCR(data[lo:hi]); k >= 0 {
				lo += k + 1
			} else if i == 0 && f.skip == 0 && f.headDropped > 0 {
				// The open line was already cut: the rest of it is cut too.
				dropped = f.headDropped + int64(hi-lo-f.headLen)
				r.droppedBytes += int64(hi - lo - f.headLen)
				hi = lo + f.headLen
			}
			if hi-lo > LineCap {
				cut := runeStart(data[lo:hi], LineCap)
				dropped += int64(hi - lo - cut)
				r.droppedBytes += int64(hi - lo - cut)
				hi = lo + cut
			}
			r.entries.push(entry{abs: f.abs + int64(lo), n: hi - lo, seq: f.seq + uint64(f.skip+i), dropped: dropped, time: f.time, stream: f.stream})
			start = end + 1
		}
	}
}

// firstSeq is the oldest seq held, or last+1 when nothing is held.
func (r *ring) firstSeq() uint64 {
	switch {
	case r.entries.len() > 0:
		return r.entries.front().seq
	case r.runs.len() > 0:
		f := r.runs.front()
		return f.seq + uint64(f.skip)
	}
	return r.last + 1
}

// ringStats are the totals a snapshot shows.
type ringStats struct {
	last, first  uint64 // first is 0 when nothing is held
	bytes        int64
	droppedBytes int64
}

func (r *ring) stats() ringStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := ringStats{last: r.last, bytes: r.bytesIn, droppedBytes: r.droppedBytes}
	if r.held > 0 {
		st.first = r.firstSeq()
	}
	return st
}

// read answers a model.ReadRequest. Texts are copies.
func (r *ring) read(req model.ReadRequest) model.Page {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.materialize()
	p := model.Page{Last: r.last, Next: req.After}
	first := r.firstSeq()
	if req.After < first-1 { // first ≥ 1: no overflow
		p.Dropped = first - req.After - 1
	}
	i0 := 0
	switch {
	case req.After >= r.last:
		i0 = r.entries.len() // nothing after the newest line
	case req.After >= first:
		i0 = int(req.After - first + 1)
	}
	count := max(r.entries.len()-i0, 0)
	if req.Limit > 0 && count > req.Limit {
		if req.Tail {
			p.Skipped = uint64(count - req.Limit)
			i0 += count - req.Limit
		} else {
			p.More = uint64(count - req.Limit)
		}
		count = req.Limit
	}
	if count > 0 {
		p.Lines = make([]model.Line, count)
		size := len(r.arena)
		for i := range count {
			e := r.entries.at(i0 + i)
			off := int(e.abs % int64(size))
			p.Lines[i] = model.Line{
				Seq: e.seq, Stream: e.stream, Time: time.Unix(0, e.time),
				Text: bytes.Clone(r.arena[off : off+e.n]), Dropped: e.dropped,
			}
		}
		p.Next = p.Lines[count-1].Seq
	}
	if !req.NoPartial {
		for s := range r.open {
			o := &r.open[s]
			if !o.active() {
				continue
			}
			text := o.buf[:visible(o.buf)]
			p.Partial = append(p.Partial, model.Line{
				Stream: model.Stream(s), Time: time.Unix(0, o.time),
				Text: bytes.Clone(text), Dropped: o.dropped, Partial: true,
			})
		}
	}
	return p
}
