package ui

import (
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// TestFloodPace: output in every frame for half a second slows frames to
// 15 a second; a quiet spell brings back 30.
func TestFloodPace(t *testing.T) {
	t.Parallel()
	c := numberedCore(1)
	h := newHarness(t, c, 120, 40, Options{})
	now := t0
	h.m.fx.clock = func() time.Time { return now }
	var last time.Duration
	step := func() {
		now = now.Add(frameInterval)
		c.emit(0, model.StreamOut, "more")
		h.pump()
		for _, tk := range h.ticks {
			if _, ok := tk.msg.(frameMsg); ok {
				last = tk.d
			}
		}
		h.fire(frameMsg{})
	}
	// Output a frame apart, for a third of a second: each comes a frame
	// after the last fetch, so it is fetched at once (30 a second).
	for range 10 {
		step()
	}
	if last != 0 {
		t.Errorf("after 0.33 s of output a frame was scheduled %v later, want each fetched at once", last)
	}
	// Past half a second it is a flood: each waits for the rest of a
	// fifteenth of a second.
	for range 10 {
		step()
	}
	if want := floodInterval - frameInterval; last < want-time.Millisecond || last > want+time.Millisecond {
		t.Errorf("after 0.66 s of output in every frame a frame waits %v, want %v", last, want)
	}
	if got := h.m.frameGap(now); got != floodInterval {
		t.Errorf("frame gap while flooding: %v, want %v", got, floodInterval)
	}
	now = now.Add(quietGap + time.Millisecond) // a quiet spell
	if got := h.m.frameGap(now); got != frameInterval {
		t.Errorf("frame gap after a quiet spell: %v, want %v", got, frameInterval)
	}
	h.m.noteOutput(now)
	if got := h.m.frameGap(now); got != frameInterval {
		t.Errorf("output after a quiet spell starts over at %v, got %v", frameInterval, got)
	}
}
