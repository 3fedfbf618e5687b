//go:build linux

package jobs

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/model"
)

// BenchmarkIngest8 floods 8 jobs at once, each printing 32 MiB of yes on
// a pty or a pipe, and reports the time until all 8 are done through
// Table.Start against 8 trivial readers of the same transport running at
// once (each in its own goroutine, discarding): the physical limit of 8
// transports on this machine's cores.
//
//	go test ./jobs -run '^$' -bench Ingest8 -benchtime 3x
func BenchmarkIngest8(b *testing.B) {
	const cmd = "yes | head -c 32M"
	for _, tty := range []bool{false, true} {
		transport := "pipe"
		if tty {
			transport = "pty"
		}
		b.Run(transport, func(b *testing.B) {
			tb, err := New(Options{StartWait: -1, MaxFinished: 16})
			if err != nil {
				b.Fatal(err)
			}
			defer tb.Close(b.Context())
			var trivial, table time.Duration
			for b.Loop() {
				t0 := time.Now()
				var wg sync.WaitGroup
				for range 8 {
					wg.Go(func() { testkit.FloodRead(b, cmd, tty, discard) })
				}
				wg.Wait()
				trivial += time.Since(t0)
				t0 = time.Now()
				var ids []model.JobID
				for i := range 8 {
					rep, err := tb.Start(b.Context(), model.Spec{Command: fmt.Sprintf("%s # %d", cmd, i), NoTTY: !tty})
					if err != nil {
						b.Fatal(err)
					}
					ids = append(ids, rep.Job.ID)
				}
				for _, id := range ids {
					for s, _ := tb.Snapshot(id); !s.Done; s, _ = tb.Snapshot(id) {
						time.Sleep(time.Millisecond)
					}
				}
				table += time.Since(t0)
			}
			n := float64(b.N)
			b.ReportMetric(trivial.Seconds()*1000/n, "ms-trivial")
			b.ReportMetric(table.Seconds()*1000/n, "ms-table")
			b.ReportMetric(table.Seconds()/trivial.Seconds(), "table/trivial")
		})
	}
}
