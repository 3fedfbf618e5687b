package ui

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// colouredLines are typical coloured log lines of about 100 cells.
var colouredLines = func() [][]byte {
	out := make([][]byte, 64)
	for i := range out {
		out[i] = fmt.Appendf(nil, "\x1b[2m12:00:%02d\x1b[22m \x1b[32mINFO\x1b[39m \x1b[1mserver\x1b[22m request \x1b[36mGET /api/items/%d\x1b[39m took \x1b[33m%dms\x1b[39m status=200 bytes=%d", i, i*37, i*7%250, i*911)
	}
	return out
}()

func colouredLine(seq uint64) []byte { return colouredLines[seq%64] }

// benchCore holds 8 running jobs; with lines, each ring is full (2000
// coloured lines, every fifth on stderr).
func benchCore(lines bool) *fakeCore {
	c := newFakeCore(fixedNow)
	for i := range 8 {
		id := c.add(model.Snapshot{Command: fmt.Sprintf("server --port %d", 8000+i), State: model.StateRunning, Started: t0}, 2000)
		if lines {
			c.emitN(id, model.StreamOut, 1600, colouredLine)
			c.emitN(id, model.StreamErr, 400, colouredLine)
			c.emitN(id, model.StreamOut, 1000, colouredLine)
		}
	}
	return c
}

// frameModel returns a console on c at w×h, with its first frame
// fetched.
func frameModel(c *fakeCore, w, h int) *Model {
	m := New(context.Background(), c, Options{KeyMap: testKeys(), Now: fixedNow})
	m.Update(teaSize(w, h))
	frame(m)
	return m
}

// frame runs one frame the way the console does while output flows: the
// fetch the frame tick starts (run here at once, as its command would),
// its result taken into the model, and the draw from that state.
func frame(m *Model) {
	m.onFetched(fetch(m.ctx, m.core, m.screenView(), nil))
	_ = m.View()
}

// timeFrames runs frames of m for about d and returns the mean time of
// one. testing.Benchmark cannot run inside a benchmark, so the baseline is
// timed by hand.
func timeFrames(m *Model, d time.Duration, one func(*Model)) time.Duration {
	n, start := 0, time.Now()
	for time.Since(start) < d || n < 10 {
		one(m)
		n++
	}
	return time.Since(start) / time.Duration(n)
}

// draw is a frame without its fetch: the draw alone.
func draw(m *Model) {
	m.invalidate()
	_ = m.View()
}

// BenchmarkFrame8Panes runs one frame (the fetch of the list and of 8
// panes' windows, then the draw) at 200×60 with 8 panes full of coloured
// lines (target ≤ 2 ms). The baseline is the same frame with empty panes,
// timed first in the same run; the ratio is reported, and so is the draw
// alone (draw-ms/frame).
func BenchmarkFrame8Panes(b *testing.B) {
	base := timeFrames(frameModel(benchCore(false), 200, 60), 300*time.Millisecond, frame)
	m := frameModel(benchCore(true), 200, 60)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		frame(m)
	}
	per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.StopTimer()
	drawOnly := timeFrames(m, 300*time.Millisecond, draw)
	b.ReportMetric(per/1e6, "ms/frame")
	b.ReportMetric(float64(base.Nanoseconds())/1e6, "empty-ms/frame")
	b.ReportMetric(per/float64(base.Nanoseconds()), "x-empty")
	b.ReportMetric(float64(drawOnly.Nanoseconds())/1e6, "draw-ms/frame")
}

// BenchmarkFrame8PanesWrap runs the same frame as BenchmarkFrame8Panes
// with wrapping on in all 8 panes (their ~100-cell lines take two or three
// rows each), beside the frame without wrapping, timed first in the same
// run; the ratio is reported (target ≤ 1.5×).
func BenchmarkFrame8PanesWrap(b *testing.B) {
	cut := frameModel(benchCore(true), 200, 60)
	base := timeFrames(cut, 300*time.Millisecond, frame)
	m := frameModel(benchCore(true), 200, 60)
	for id := range model.JobID(8) {
		m.wrap[id] = true
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		frame(m)
	}
	per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(per/1e6, "ms/frame")
	b.ReportMetric(float64(base.Nanoseconds())/1e6, "cut-ms/frame")
	b.ReportMetric(per/float64(base.Nanoseconds()), "x-cut")
}
