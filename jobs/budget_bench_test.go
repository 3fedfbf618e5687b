package jobs

import (
	"fmt"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// BenchmarkBudgetedRead reads a full ring of 2000 lines, plain or
// coloured, with an agent's budget (16 KiB, 1 KiB a line, counted in plain
// text) and, as the baseline in the same run, without one, and reports
// budgeted/unbudgeted. The budgeted read weighs each line it considers as
// plain text but copies only what fits; measured 0.24 (plain) and 0.34
// (coloured, about 400 lines kept).
// Run: go test ./jobs -run '^$' -bench BudgetedRead
func BenchmarkBudgetedRead(b *testing.B) {
	for _, c := range []struct{ name, format string }{
		{"plain", "ok line %04d of the test run, all passing\n"},
		{"colour", "\x1b[1m\x1b[32mok\x1b[0m line \x1b[36m%04d\x1b[0m of the test run, all passing\x1b[K\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			var r ring
			for i := range RingLines {
				r.write(model.StreamOut, fmt.Appendf(nil, c.format, i), time.Now())
			}
			read := func(o model.StatusOptions) {
				o.Lines = model.MaxStatusLines
				r.selectLines(readSpec{opts: o})
			}
			var with, without time.Duration
			for b.Loop() {
				t0 := time.Now()
				read(model.StatusOptions{MaxBytes: model.DefaultResultBytes, LineBytes: 1 << 10})
				t1 := time.Now()
				read(model.StatusOptions{})
				with, without = with+t1.Sub(t0), without+time.Since(t1)
			}
			b.ReportMetric(float64(with.Microseconds())/float64(b.N), "budgeted-µs")
			b.ReportMetric(float64(without.Microseconds())/float64(b.N), "unbudgeted-µs")
			b.ReportMetric(float64(with)/float64(without), "ratio")
		})
	}
}
