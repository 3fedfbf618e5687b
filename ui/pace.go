package ui

import "time"

// Pacing frames while output floods. Output that comes after a quiet
// spell is fetched at once; after that, at most one frame every
// frameInterval (about 30 a second). Once output has come in every frame
// for floodAfter (a flood: more than anyone reads as it scrolls by), frames
// come every floodInterval (15 a second), which halves what a flood costs
// the console and the session that answers its fetches; the first quiet
// spell (no output for quietGap) brings back 30 a second. Keys, state
// changes and the clock redraw at once, whatever the pace.
const (
	floodAfter    = 500 * time.Millisecond
	floodInterval = time.Second / 15
	quietGap      = 3 * frameInterval
)

// noteOutput records that output came in at now.
func (m *Model) noteOutput(now time.Time) {
	if m.lastOutput.IsZero() || now.Sub(m.lastOutput) > quietGap {
		m.floodSince = now
	}
	m.lastOutput = now
}

// frameGap is the time between two frames while output flows, as of now.
func (m *Model) frameGap(now time.Time) time.Duration {
	if !m.floodSince.IsZero() && now.Sub(m.lastOutput) <= quietGap && now.Sub(m.floodSince) >= floodAfter {
		return floodInterval
	}
	return frameInterval
}
