package testkit

import (
	"testing"
	"time"
)

// pollEvery is how often Poll and WaitFor look.
const pollEvery = 10 * time.Millisecond

// Poll calls cond every 10 ms until it holds or d passes, and reports
// whether it held. cond is called at least once.
func Poll(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(pollEvery)
	}
}

// WaitFor is Poll that fails the test at once ("timed out after d waiting
// for what") when cond never held.
func WaitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Poll(d, cond) {
		t.Fatalf("timed out after %v waiting for %s", d, what)
	}
}
