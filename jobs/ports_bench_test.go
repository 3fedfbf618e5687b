//go:build linux

package jobs

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ports"
)

// BenchmarkPortScanner measures what the table's scanner does once a
// second with 8 live jobs of 200 processes in all (each job: its
// supervisor, bash, a Go server on a port, 22 sleeps): scanPorts, that is
// the scan of the supervisors' trees, the ports put into the snapshots,
// and the check of each job's new output. Beside it, in the same run, the
// scan alone (ports.Scanner over the same roots). Reported, CPU time of
// this process per call:
//
//	cpu-ms/scan   scanPorts
//	%core@1Hz     that as a share of one core at one scan per second
//	scan-ms/scan  ports.Scanner.Scan alone
//	core/scan     the ratio: what the core adds to the scan
//
// Target: %core@1Hz ≤ 1.
// Run: go test ./jobs -run '^$' -bench PortScanner -benchtime 200x
func BenchmarkPortScanner(b *testing.B) {
	const jobs, perJob = 8, 25
	tb, err := New(Options{Grace: new(time.Duration)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = tb.Close(b.Context()) })
	server := serveCommand(b, "127.0.0.1:0")
	var ids []model.JobID
	for i := range jobs {
		// perJob - 3: the supervisor, bash and the server make up the rest;
		// the comment keeps the commands apart (one command runs once).
		r, err := tb.Start(b.Context(), model.Spec{NoWait: true,
			Command: server + " & " + strings.Repeat("sleep 300 & ", perJob-3) + "wait # " + strconv.Itoa(i)})
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, r.Job.ID)
	}
	deadline := time.Now().Add(60 * time.Second)
	for !allListen(tb, ids) {
		if time.Now().After(deadline) {
			b.Fatal("the jobs did not all show a port within 60 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	var roots []int
	for _, id := range ids {
		j, err := tb.find(id)
		if err != nil {
			b.Fatal(err)
		}
		roots = append(roots, tb.rootOf(j))
	}
	if n := countTree(roots); n != jobs*perJob {
		b.Logf("the trees hold %d processes (want %d): sleeps still starting?", n, jobs*perJob)
	}

	var sc ports.Scanner
	n := 0
	c0 := processCPU(b)
	for b.Loop() {
		tb.scanPorts(&sc)
		n++
	}
	core := (processCPU(b) - c0) / time.Duration(n)
	var alone ports.Scanner
	c0 = processCPU(b)
	for range n {
		if _, err := alone.Scan(roots); err != nil {
			b.Fatal(err)
		}
	}
	scan := (processCPU(b) - c0) / time.Duration(n)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(core), "cpu-ms/scan")
	b.ReportMetric(ms(core)/10, "%core@1Hz")
	b.ReportMetric(ms(scan), "scan-ms/scan")
	if scan > 0 {
		b.ReportMetric(float64(core)/float64(scan), "core/scan")
	}
}

// allListen reports whether every job lists one port.
func allListen(tb *Table, ids []model.JobID) bool {
	for _, id := range ids {
		if s, ok := tb.Snapshot(id); !ok || len(s.Ports) != 1 {
			return false
		}
	}
	return true
}

// countTree counts the processes of the trees of roots, roots included.
func countTree(roots []int) int {
	n := 0
	for _, r := range roots {
		n += 1 + countTree(ports.Children(r))
	}
	return n
}

// processCPU is the CPU time (user and system) this process used so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
