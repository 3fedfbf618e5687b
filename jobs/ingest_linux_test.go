package jobs

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/internal/testtimeout"
	"github.com/jobdeck/jobdeck/model"
)

// TestIngestEightJobsAtOnce: 8 jobs printing 30000 numbered lines each at
// once, on ptys and pipes, share the ingest loops; each ring ends with its
// own last 2000 lines, in order, none lost or mixed up.
func TestIngestEightJobsAtOnce(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: -1})
	const n = 30000
	var ids []model.JobID
	for i := range 8 {
		cmd := fmt.Sprintf("seq -f 'job%d %%g' 1 %d", i, n)
		ids = append(ids, start(t, tb, model.Spec{Command: cmd, NoTTY: i%2 == 0}).Job.ID)
	}
	for i, id := range ids {
		waitFor(t, testtimeout.Scale(60*time.Second), "job to end", func() bool { return snap(t, tb, id).Done })
		p, err := tb.Read(id, model.ReadRequest{Tail: true, Limit: 2000})
		if err != nil {
			t.Fatal(err)
		}
		if p.Last != n || len(p.Lines) != 2000 {
			t.Fatalf("job %d: last seq %d and %d lines; want %d and 2000", i, p.Last, len(p.Lines), n)
		}
		for k, l := range p.Lines {
			if want := fmt.Sprintf("job%d %d", i, n-2000+1+k); string(l.Text) != want {
				t.Fatalf("job %d line %d: %q, want %q", i, l.Seq, l.Text, want)
			}
		}
	}
}

// TestIngestFloodLeavesRoomForOthers: while one job floods, another's
// line arrives (each ready stream is read at most readBuf bytes a round).
func TestIngestFloodLeavesRoomForOthers(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{StartWait: -1})
	flood := start(t, tb, model.Spec{Command: "yes flood"})
	waitFor(t, testtimeout.Scale(10*time.Second), "the flood", func() bool { return snap(t, tb, flood.Job.ID).Lines > 10000 })
	tick := start(t, tb, model.Spec{Command: "sleep 0.2; echo tick; sleep 600", NoTTY: true})
	waitLine(t, tb, tick.Job.ID, "tick")
	if snap(t, tb, flood.Job.ID).Done {
		t.Fatal("the flood ended before the other job printed")
	}
}

// ingestInto reads f into a new ring through pool p on a goroutine; the
// returned channel is closed when ingest returned.
func ingestInto(p *ingestPool, f *os.File) (*ring, chan struct{}) {
	r := &ring{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.ingest(f, stream{s: model.StreamOut, r: r, activity: make(chan struct{}, 1)})
	}()
	return r, done
}

// ringTexts is every line text a ring holds.
func ringTexts(r *ring) []string {
	return lineTexts(r.read(model.ReadRequest{}))
}

// TestIngestLoopEndsMidStream: when an ingest loop lets go of a stream
// that is not at its end, the stream's reader reads on by itself (the
// descriptor's blocking mode given back): nothing is lost, in order.
func TestIngestLoopEndsMidStream(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	p := &ingestPool{wg: &wg}
	r, w := testkit.BlockingPipe(t)
	ring, done := ingestInto(p, r)
	fmt.Fprintln(w, "one")
	waitFor(t, testtimeout.Scale(10*time.Second), "line one", func() bool { return len(ringTexts(ring)) == 1 })
	p.mu.Lock()
	in := p.all[0]
	p.mu.Unlock()
	in.abandon()
	wg.Wait() // the loop ended
	for i := range 1000 {
		fmt.Fprintln(w, strconv.Itoa(i))
	}
	w.Close()
	<-done
	got := ringTexts(ring)
	if len(got) != 1001 || got[0] != "one" || got[1] != "0" || got[1000] != "999" {
		t.Fatalf("after the loop ended: %d lines, %q … %q", len(got), got[:min(3, len(got))], got[len(got)-1])
	}
}

// TestIngestNotPollable: a descriptor epoll refuses (a regular file) is
// read by a reader of its own.
func TestIngestNotPollable(t *testing.T) {
	t.Parallel()
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprint(f, "a\nb\n")
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	p := &ingestPool{wg: &wg}
	ring, done := ingestInto(p, f)
	<-done
	if got := ringTexts(ring); len(got) != 2 || got[1] != "b" {
		t.Fatalf("lines %q, want a and b", got)
	}
	p.close()
	wg.Wait()
}

// TestIngestPoolClose: a closed pool takes no stream (its reader reads
// it) and its loops end once their last stream ends.
func TestIngestPoolClose(t *testing.T) {
	t.Parallel()
	var wg sync.WaitGroup
	p := &ingestPool{wg: &wg}
	r1, w1 := testkit.BlockingPipe(t)
	ring1, done1 := ingestInto(p, r1)
	fmt.Fprintln(w1, "before")
	waitFor(t, testtimeout.Scale(10*time.Second), "line before", func() bool { return len(ringTexts(ring1)) == 1 })
	p.close()
	r2, w2 := testkit.BlockingPipe(t)
	ring2, done2 := ingestInto(p, r2)
	fmt.Fprintln(w2, "after close")
	w2.Close()
	<-done2
	if got := ringTexts(ring2); len(got) != 1 {
		t.Fatalf("a stream given to a closed pool: lines %q", got)
	}
	fmt.Fprintln(w1, "still read")
	w1.Close()
	<-done1
	wg.Wait() // the loop ended with its last stream
	if got := ringTexts(ring1); len(got) != 2 || got[1] != "still read" {
		t.Fatalf("the stream of a closing pool: lines %q", got)
	}
}
