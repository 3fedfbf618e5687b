//go:build unix

package vhs

import (
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"
)

// BenchmarkLineToScreen measures how long a line a job prints takes to
// reach the screen of a console attached to the session (the real binary
// in a pty, its output fed to a terminal emulator): the job prints its own
// clock ten times a second, the benchmark polls the emulator's screen
// every millisecond and notes when each line first shows. Target (issue
// 8): p99 ≤ 50 ms.
//
//	go test ./vhs -run '^$' -bench LineToScreen -benchtime 100x
func BenchmarkLineToScreen(b *testing.B) {
	term, _ := startShellEnv(b, 120, 30)
	typeLine(term, `jobdeck -- 'i=0; while :; do i=$((i+1)); echo "tick $i $(date +%s%N)"; sleep 0.1; done'`)
	re := regexp.MustCompile(`tick (\d+) (\d{19})`)
	seen := map[int]bool{}
	var lat []time.Duration
	deadline := time.Now().Add(time.Duration(b.N)*200*time.Millisecond + 30*time.Second)
	b.ResetTimer()
	for len(lat) < b.N && time.Now().Before(deadline) {
		now := time.Now()
		for _, line := range term.Lines() {
			m := re.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			n, _ := strconv.Atoi(m[1])
			ns, _ := strconv.ParseInt(m[2], 10, 64)
			if !seen[n] {
				seen[n] = true
				if len(seen) > 3 { // the first lines came before the screen was up
					lat = append(lat, now.Sub(time.Unix(0, ns)))
				}
			}
		}
		time.Sleep(time.Millisecond)
	}
	b.StopTimer()
	term.SendText("q")
	term.SendText("y")
	if len(lat) == 0 {
		b.Fatalf("no tick reached the screen:\n%s", term.Screen())
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
	b.ReportMetric(0, "ns/op")
}
