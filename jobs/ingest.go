package jobs

import (
	"io"
	"os"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// The ingest path (ARCHITECTURE.md §4): where the platform allows (Linux,
// ingest_linux.go), a few ingest goroutines of the Table read every job's
// streams as their own epoll reports them ready; elsewhere, or when a
// stream cannot join one, a goroutine per stream reads it (pump).

// stream is one job output stream being read into a ring.
type stream struct {
	s        model.Stream
	r        *ring
	activity chan<- struct{} // poked (never blocking) after data is written
}

// ingest reads f into st's ring until EOF or an error (a pty master's
// EIO once the last writer is gone counts as EOF), and returns then; f
// stays open (the caller closes it).
func (p *ingestPool) ingest(f *os.File, st stream) {
	if p.read(f, st) {
		return
	}
	pump(f, st.s, st.r, st.activity)
}

// pump copies one stream into the ring until EOF or an error, poking
// activity after each read: the reader of a stream that no ingest
// goroutine can take.
func pump(f io.Reader, s model.Stream, r *ring, activity chan<- struct{}) {
	buf := make([]byte, readBuf)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			r.write(s, buf[:n], time.Now())
			poke(activity)
		}
		if err != nil {
			return
		}
	}
}

// poke sends on a 1-buffered wake-up channel without blocking.
func poke(c chan<- struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
