//go:build linux

package main

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"github.com/jobdeck/jobdeck/jobs"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ui"
)

// cpuTime is this process's user+system CPU time (getrusage(2)): jobdeck's
// own work, not the jobs', which are other processes.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuOver returns the CPU this process used over d, in percent of one core.
func cpuOver(d time.Duration) float64 {
	c0, t0 := cpuTime(), time.Now()
	time.Sleep(d)
	return 100 * float64(cpuTime()-c0) / float64(time.Since(t0))
}

type countingWriter struct{ n atomic.Int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n.Add(int64(len(p))); return len(p), nil }

// startJobs starts n jobs running cmd (numbered so they are not
// duplicates) in a new table.
func startJobs(b *testing.B, n int, cmd string) *jobs.Table {
	tb, err := jobs.New(jobs.Options{StartWait: -1, Grace: new(time.Second)})
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if _, err := tb.Start(b.Context(), model.Spec{Command: fmt.Sprintf("%s # %d", cmd, i)}); err != nil {
			b.Fatal(err)
		}
	}
	return tb
}

// runConsoleHeadless runs the real console on tb at 200×60, writing to out
// as to a true-colour terminal, until the returned stop is called.
func runConsoleHeadless(tb *jobs.Table, out io.Writer) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	in, inW := io.Pipe()
	profile := colorprofile.TrueColor
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = ui.Run(ctx, consoleCore{tb}, ui.Options{
			KeyMap: defaultKeyMap(), Input: in, Output: out, Width: 200, Height: 60,
			ColorProfile: &profile, MaxRunning: jobs.DefaultMaxRunning,
		})
	}()
	return func() { cancel(); <-done; inW.Close() }
}

// BenchmarkConsoleCPU measures the CPU the console costs in jobdeck's
// process with the real jobs core: 8 jobs flooding coloured lines, with
// the console attached (200×60, true colour, output discarded as a fast
// terminal would take it) and without it, in the same run; and an idle
// console, with no jobs and with 8 quiet live jobs (whose elapsed times
// tick each second). Targets: the console's share while 8 jobs
// flood ≤ 25 % of one core; idle ≤ 1 %.
//
//	go test . -run '^$' -bench ConsoleCPU -benchtime 1x
func BenchmarkConsoleCPU(b *testing.B) {
	const window = 3 * time.Second
	const flood = `timeout 60 sh -c 'yes "$(printf "\033[32mok\033[0m all work and no play \033[1;31mmakes\033[0m jack")" | nl | cat'`
	ctx := context.Background()
	for b.Loop() {
		// 8 floods, no screen: what jobdeck's readers and rings cost.
		tb := startJobs(b, 8, flood)
		time.Sleep(500 * time.Millisecond)
		alone := cpuOver(window)
		_ = tb.Close(ctx)

		// The same 8 floods with the console attached.
		tb = startJobs(b, 8, flood)
		var out countingWriter
		stop := runConsoleHeadless(tb, &out)
		time.Sleep(500 * time.Millisecond)
		n0 := out.n.Load()
		with := cpuOver(window)
		written := out.n.Load() - n0
		stop()
		_ = tb.Close(ctx)
		if written == 0 {
			b.Fatal("the console drew nothing while the jobs flooded")
		}

		// An idle console: no jobs, then 8 quiet live jobs.
		tb = startJobs(b, 0, "")
		stop = runConsoleHeadless(tb, io.Discard)
		time.Sleep(500 * time.Millisecond)
		idle := cpuOver(window)
		stop()
		_ = tb.Close(ctx)
		tb = startJobs(b, 8, "sleep 60")
		stop = runConsoleHeadless(tb, io.Discard)
		time.Sleep(500 * time.Millisecond)
		quiet := cpuOver(window)
		stop()
		_ = tb.Close(ctx)

		b.ReportMetric(alone, "floods-no-screen-%cpu")
		b.ReportMetric(with, "floods-with-console-%cpu")
		b.ReportMetric(with-alone, "console-during-floods-%cpu")
		b.ReportMetric(idle, "idle-empty-%cpu")
		b.ReportMetric(quiet, "idle-8-quiet-jobs-%cpu")
		b.ReportMetric(float64(written)/window.Seconds()/1024, "console-out-KiB/s")
	}
}
