package ports

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/jobdeck/jobdeck/model"
)

// BenchmarkScan measures the CPU time of scanning 8 jobs with 200
// processes in all (each job: bash, a Go server listening on a port, 23
// sleeps) once a second, as the jobs core does, and beside it, in the
// same run, what a scan costs without its memo and what reading the /proc
// socket tables alone costs. Reported, CPU time (user + system of this
// process) per scan:
//
//	cpu-ms/scan     a scan by one Scanner, again and again: the memo's
//	                checks, plus its searches (its refresh every 30 scans,
//	                and listeners that other processes open meanwhile)
//	%core@1Hz       that, as a share of one core at one scan per second
//	search-ms/scan  a scan with nothing remembered: every tree walked and
//	                every fd table read, the listeners from sock_diag
//	tables-ms/read  reading /proc/net/tcp and /proc/net/tcp6 once: the
//	                baseline of a scan that matched fd tables against them
//	scan/tables     cpu-ms/scan over tables-ms/read
//
// Target: %core@1Hz ≤ 1.
// Run: go test ./ports -run '^$' -bench Scan -benchtime 300x
func BenchmarkScan(b *testing.B) {
	const jobs, perJob = 8, 25
	roots := make([]int, jobs)
	for i := range roots {
		tr := startTree(b, serve("127.0.0.1:0")+" & "+strings.Repeat("sleep 300 & ", perJob-2)+"wait")
		tr.listening(b, 1)
		roots[i] = tr.pid()
	}
	var s Scanner
	// Every sleep must have started before the count is taken.
	deadline := time.Now().Add(30 * time.Second)
	for countProcs(&s, roots) < jobs*perJob {
		if time.Now().After(deadline) {
			b.Fatalf("the trees hold %d processes, want %d", countProcs(&s, roots), jobs*perJob)
		}
		time.Sleep(20 * time.Millisecond)
	}
	check := func(got [][]model.Port, err error) {
		if err != nil {
			b.Fatal(err)
		}
		for i, ps := range got {
			if len(ps) != 1 {
				b.Fatalf("tree %d listens on %v, want one port", i, ps)
			}
		}
	}
	check(s.Scan(roots))

	n := 0
	c0 := cpuTime(b)
	for b.Loop() {
		check(s.Scan(roots))
		n++
	}
	scan := (cpuTime(b) - c0) / time.Duration(n)

	full := min(n, 50)
	c0 = cpuTime(b)
	for range full {
		var fresh Scanner
		check(fresh.Scan(roots))
	}
	search := (cpuTime(b) - c0) / time.Duration(full)

	var fs procfs
	c0 = cpuTime(b)
	for range full {
		if err := fs.tableListeners(func(listener) {}); err != nil {
			b.Fatal(err)
		}
	}
	tables := (cpuTime(b) - c0) / time.Duration(full)

	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(scan), "cpu-ms/scan")
	b.ReportMetric(ms(scan)/1000*100, "%core@1Hz")
	b.ReportMetric(ms(search), "search-ms/scan")
	b.ReportMetric(ms(tables), "tables-ms/read")
	if tables > 0 {
		b.ReportMetric(float64(scan)/float64(tables), "scan/tables")
	}
}

// countProcs counts the processes of the trees.
func countProcs(s *Scanner, roots []int) int {
	s.w.fs, s.w.parents = &s.fs, nil
	if s.w.seen == nil {
		s.w.seen = map[int]bool{}
	}
	clear(s.w.seen)
	n := 0
	for _, r := range roots {
		n += len(s.w.tree(r, nil))
	}
	return n
}

// cpuTime is the CPU time (user and system) this process used so far.
func cpuTime(b *testing.B) time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	tv := func(t syscall.Timeval) time.Duration {
		return time.Duration(t.Sec)*time.Second + time.Duration(t.Usec)*time.Microsecond
	}
	return tv(syscall.Timeval(ru.Utime)) + tv(syscall.Timeval(ru.Stime))
}
