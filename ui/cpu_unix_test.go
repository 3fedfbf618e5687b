//go:build unix

package ui

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"github.com/jobdeck/jobdeck/model"
)

// cpuTime returns this process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// flood makes every live job of c print coloured lines as fast as a
// reader would ingest a busy job: batches of lines every millisecond, with
// an output event per batch. It returns a stop function.
func flood(c *fakeCore, ids []model.JobID, perMs int) func() {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			t := time.NewTicker(time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					c.emitN(id, model.StreamOut, perMs, colouredLine)
				}
			}
		})
	}
	return func() { cancel(); wg.Wait() }
}

// countingWriter counts what the console writes to its "terminal".
type countingWriter struct{ n atomic.Int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	return len(p), nil
}

// runHeadless runs the real program (Run) on pipes at w×h until stop is
// called. The output is counted and thrown away, as a terminal would take
// it.
func runHeadless(c *fakeCore, w, h int, out io.Writer) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	in, inW := io.Pipe()
	errc := make(chan error, 1)
	profile := colorprofile.TrueColor
	go func() {
		errc <- Run(ctx, c, Options{
			KeyMap: testKeys(), Input: in, Output: out,
			Width: w, Height: h, ColorProfile: &profile,
		})
	}()
	return func() error {
		cancel()
		err := <-errc
		inW.Close()
		if err == context.Canceled {
			return nil
		}
		return err
	}
}

// measureCPU returns the CPU this process used over d, as a fraction of
// one core.
func measureCPU(d time.Duration) float64 {
	c0, t0 := cpuTime(), time.Now()
	time.Sleep(d)
	return float64(cpuTime()-c0) / float64(time.Since(t0))
}

// BenchmarkTUICPU measures the CPU the console costs while 8 jobs flood,
// beyond what the same flood costs with no screen attached (target ≤ 25 %
// of one core), and on an idle console (target ≤ 1 %). The jobs are
// synthetic (a fake core ingesting 8 × 50 000 coloured lines a second in
// process); the console is the real program, headless, rendering 200×60
// to a discarding writer. Reported as percent of one core.
func BenchmarkTUICPU(b *testing.B) {
	if testing.Short() {
		b.Skip("takes about 8 s")
	}
	const window = 2 * time.Second
	for b.Loop() {
		// Idle console: no jobs.
		c := newFakeCore(time.Now)
		stop := runHeadless(c, 200, 60, io.Discard)
		time.Sleep(300 * time.Millisecond) // first frame, start-up
		idle := measureCPU(window)
		if err := stop(); err != nil {
			b.Fatal(err)
		}

		// Idle console with 8 quiet live jobs (the 1 s clock ticks).
		c = benchCore(true)
		stop = runHeadless(c, 200, 60, io.Discard)
		time.Sleep(300 * time.Millisecond)
		quiet := measureCPU(window)
		if err := stop(); err != nil {
			b.Fatal(err)
		}

		// The flood alone, no screen.
		c = benchCore(true)
		ids := []model.JobID{0, 1, 2, 3, 4, 5, 6, 7}
		stopFlood := flood(c, ids, 50)
		time.Sleep(200 * time.Millisecond)
		alone := measureCPU(window)
		stopFlood()

		// The flood with the console attached.
		c = benchCore(true)
		var out countingWriter
		stop = runHeadless(c, 200, 60, &out)
		stopFlood = flood(c, ids, 50)
		time.Sleep(300 * time.Millisecond)
		n0 := out.n.Load()
		with := measureCPU(window)
		written := out.n.Load() - n0
		stopFlood()
		if err := stop(); err != nil {
			b.Fatal(err)
		}

		b.ReportMetric(idle*100, "idle-%cpu")
		b.ReportMetric(quiet*100, "quiet-live-%cpu")
		b.ReportMetric(alone*100, "flood-alone-%cpu")
		b.ReportMetric(with*100, "flood-with-ui-%cpu")
		b.ReportMetric((with-alone)*100, "ui-during-flood-%cpu")
		b.ReportMetric(float64(written)/window.Seconds()/1024, "ui-out-KiB/s")
		if written == 0 {
			b.Fatal("the console wrote nothing while the jobs flooded")
		}
		if alone > 0 {
			b.ReportMetric(with/alone, "x-flood-alone")
		}
	}
}
