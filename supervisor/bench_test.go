//go:build linux

package supervisor

import (
	"io"
	"os"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkStart measures job start latency: Start until it returns (the
// supervisor's "started" event, after bash was exec'd), against the
// baseline of running `bash -c true` directly (fork, exec, exit, wait), in
// the same run. Metrics: start-ns/op, bash-ns/op and start/bash (the
// ratio). ns/op also counts draining and reaping each job.
func BenchmarkStart(b *testing.B) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		b.Skip("bash not found")
	}
	for _, tc := range []struct {
		name string
		tty  bool
	}{{"pipe", false}, {"pty", true}} {
		b.Run(tc.name, func(b *testing.B) {
			dir := b.TempDir()
			env := os.Environ()
			var startTotal, baseTotal time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				c := exec.Command(bash, "-c", "true")
				c.Dir, c.Env = dir, env
				if err := c.Run(); err != nil {
					b.Fatal(err)
				}
				baseTotal += time.Since(t0)

				t1 := time.Now()
				h, err := Start(Config{Command: "true", Dir: dir, Env: env, TTY: tc.tty})
				startTotal += time.Since(t1)
				if err != nil {
					b.Fatal(err)
				}
				drain(h)
			}
			b.ReportMetric(float64(startTotal.Nanoseconds())/float64(b.N), "start-ns/op")
			b.ReportMetric(float64(baseTotal.Nanoseconds())/float64(b.N), "bash-ns/op")
			b.ReportMetric(float64(startTotal)/float64(baseTotal), "start/bash")
		})
	}
}

// drain reads a job's output and events to the end.
func drain(h *Handle) {
	done := make(chan struct{}, 2)
	for _, f := range []*os.File{h.Stdout(), h.Stderr()} {
		go func() {
			_, _ = io.Copy(io.Discard, f)
			f.Close()
			done <- struct{}{}
		}()
	}
	for range h.Events() {
	}
	<-done
	<-done
	_ = h.Close()
}
