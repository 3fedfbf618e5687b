//go:build linux

package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"github.com/jobdeck/jobdeck/jobs"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/session"
	"github.com/jobdeck/jobdeck/ui"
)

// procCPU is a process's user+system CPU time so far (/proc/<pid>/stat
// fields 14 and 15, in clock ticks).
func procCPU(b *testing.B, pid int) time.Duration {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		b.Fatal(err)
	}
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	const hz = 100 // USER_HZ, the same on every Linux architecture jobdeck runs on
	return time.Duration(ut+st) * time.Second / hz
}

// BenchmarkAttachedConsoleCPU measures what a console costs while 8 jobs
// flood coloured lines: today's in-process console (jobdeck --private: one
// process reads the floods and draws) beside a console attached to a
// session (the session process reads the floods and answers the
// console's fetches; the console process fetches and draws), in the same
// run. Both draw at 200×60 in true colour to a fast sink. The figure is
// the CPU of every jobdeck process involved (not the jobs'), in percent
// of one core, and the ratio attached / in-process. Target: ≤ 1.25×.
//
//	go test . -run '^$' -bench AttachedConsoleCPU -benchtime 1x
func BenchmarkAttachedConsoleCPU(b *testing.B) {
	const window = 3 * time.Second
	const flood = `timeout 60 sh -c 'yes "$(printf "\033[32mok\033[0m all work and no play \033[1;31mmakes\033[0m jack")" | nl | cat'`
	for b.Loop() {
		// In process: table and console in this process.
		tb := startJobs(b, 8, flood)
		var out countingWriter
		stop := runConsoleHeadless(tb, &out)
		time.Sleep(500 * time.Millisecond)
		inproc := cpuOver(window)
		stop()
		_ = tb.Close(context.Background())

		// Attached: a session process of its own, this process the console.
		attached, sessionShare := attachedCPU(b, flood, window)
		b.ReportMetric(inproc, "in-process-%cpu")
		b.ReportMetric(attached, "attached-%cpu")
		b.ReportMetric(sessionShare, "of-which-session-%cpu")
		b.ReportMetric(attached/inproc, "attached/in-process")
	}
}

// attachedCPU runs 8 floods in a new session and a headless console
// attached to it, and returns the CPU of both processes over window, and
// the session's part of it.
func attachedCPU(b *testing.B, flood string, window time.Duration) (total, sessionPart float64) {
	dir := b.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	b.Setenv(session.EnvDir, dir)
	wt := b.TempDir()
	grace := time.Second
	opts := session.JoinOptions{Target: session.Target{Worktree: wt}, Dir: wt, Linger: time.Second, Grace: &grace, Name: "console"}
	r, err := session.Attach(b.Context(), opts)
	if err != nil {
		b.Fatal(err)
	}
	core := &remoteCore{opts: opts, r: r}
	for i := range 8 {
		if _, err := core.Start(b.Context(), model.Spec{Command: fmt.Sprintf("%s # %d", flood, i), NoWait: true}); err != nil {
			b.Fatal(err)
		}
	}
	spid := r.Welcome().Info.PID
	ctx, cancel := context.WithCancel(context.Background())
	profile := colorprofile.TrueColor
	var out countingWriter
	in, inW, _ := os.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = ui.Run(ctx, core, ui.Options{KeyMap: defaultKeyMap(), Input: in, Output: &out, Width: 200, Height: 60,
			ColorProfile: &profile, MaxRunning: jobs.DefaultMaxRunning})
	}()
	time.Sleep(500 * time.Millisecond)
	s0, c0, t0 := procCPU(b, spid), cpuTime(), time.Now()
	time.Sleep(window)
	s1, c1, el := procCPU(b, spid), cpuTime(), time.Since(t0)
	cancel()
	<-done
	inW.Close()
	if out.n.Load() == 0 {
		b.Fatal("the attached console drew nothing")
	}
	// End the session and its jobs before the next round.
	if _, err := session.Stop(context.Background(), opts.Target); err != nil {
		b.Logf("stop the session: %v", err)
	}
	_ = core.Close()
	sess := 100 * float64(s1-s0) / float64(el)
	cons := 100 * float64(c1-c0) / float64(el)
	return sess + cons, sess
}
