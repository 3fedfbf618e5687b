package stdio

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// TestLineQueueBounds: the read-ahead holds at most maxQueuedLines lines
// and maxQueuedBytes bytes when nothing takes
// lines out, and loses none: every line comes out, in order, as room
// frees.
func TestLineQueueBounds(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 1<<20) // 16 of these fill the bytes
	for _, tc := range []struct {
		name  string
		lines []string
		hold  int // lines queued once the queue is full
	}{
		{"lines", manyLines(3*maxQueuedLines, func(i int) string { return fmt.Sprintf(`{"n":%d}`, i) }), maxQueuedLines},
		{"bytes", manyLines(40, func(i int) string { return fmt.Sprintf(`"%d%s"`, i%10, big[:len(big)-3]) }), 16},
		{"lines over half the bytes", manyLines(3, func(i int) string { return fmt.Sprintf(`"%d%s"`, i, strings.Repeat("y", 9<<20)) }), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := newLineQueue()
			stop := make(chan struct{})
			defer close(stop)
			go q.fill(strings.NewReader(strings.Join(tc.lines, "\n")+"\n"), stop)
			testkit.WaitFor(t, 10*time.Second, "the queue full", func() bool {
				q.mu.Lock()
				defer q.mu.Unlock()
				if len(q.items) > tc.hold || (len(q.items) > 1 && q.bytes > maxQueuedBytes) {
					t.Fatalf("%d lines, %d bytes queued; want at most %d lines and %d bytes", len(q.items), q.bytes, tc.hold, maxQueuedBytes)
				}
				return len(q.items) == tc.hold
			})
			select {
			case <-q.ended:
				t.Fatal("the whole input was read with nothing taken out")
			default:
			}
			for i, want := range tc.lines {
				it, ok := q.next(context.Background())
				if !ok || !bytes.Equal(it.line, []byte(want)) {
					t.Fatalf("line %d: %.20q, %v; want %.20q", i, it.line, ok, want)
				}
			}
			if it, ok := q.next(context.Background()); ok {
				t.Fatalf("after the last line: %.20q", it.line)
			}
		})
	}
}

// manyLines is n lines made by line.
func manyLines(n int, line func(i int) string) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = line(i)
	}
	return lines
}
