package serve

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestEndToEndUntilMatchesUnseenLines: until without since matches the
// lines this client has not been shown yet, including one printed between
// its last call and this one, and not one it was already shown.
func TestEndToEndUntilMatchesUnseenLines(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	ok(t, cs, toolBackground, map[string]any{"command": "echo hello; sleep 0.6; echo ready; sleep 30", "name": "srv"})
	// "ready" comes while nobody asks.
	time.Sleep(1500 * time.Millisecond) // the gap between two agent calls: the subject of the test
	t0 := time.Now()
	_, text := ok(t, cs, toolStatus, map[string]any{"id": "srv", "wait": 10, "until": "ready"})
	if !strings.Contains(text, "wait: a line matched") || time.Since(t0) > 3*time.Second {
		t.Fatalf("an unseen ready line must match at once:\n%s", text)
	}
	// Now it was shown: waiting for it again times out (negative control).
	_, text = ok(t, cs, toolStatus, map[string]any{"id": "srv", "wait": 0.5, "until": "ready"})
	if !strings.Contains(text, "timed out") {
		t.Fatalf("a line already shown must not match again:\n%s", text)
	}
	ok(t, cs, toolKill, map[string]any{"id": "srv", "grace": 0})

	// A look at the newest line only (lines: 1) did not show "ready",
	// printed before it: waiting for it still matches.
	ok(t, cs, toolBackground, map[string]any{"command": "sleep 0.5; echo ready; seq 1 100; sleep 30", "name": "c"})
	time.Sleep(1500 * time.Millisecond) // let it print everything: the subject of the test
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": "c", "lines": 1}); !strings.Contains(text, "> 100") {
		t.Fatalf("tail: %s", text)
	}
	if _, text := ok(t, cs, toolStatus, map[string]any{"id": "c", "wait": 5, "until": "ready"}); !strings.Contains(text, "wait: a line matched") {
		t.Fatalf("a line a tail left out is not shown yet:\n%s", text)
	}
	ok(t, cs, toolKill, map[string]any{"id": "c", "grace": 0})
}
