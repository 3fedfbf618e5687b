//go:build linux

package session

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// BenchmarkToolRoundTrip measures one tool call (job_status without id:
// the job list) from the agent's MCP client, through `jobdeck --serve`
// relaying to the session process, beside the same call to a direct
// in-process server (`jobdeck --serve --private`) in the same run:
// p50 and p99 of each, and the ratios.
func BenchmarkToolRoundTrip(b *testing.B) {
	w := newWorld(b)
	direct, _ := w.agent("direct", "--private")
	shared, _ := w.agent("shared", "--linger", "1s")
	for _, cs := range []*mcp.ClientSession{direct, shared} {
		callList(b, cs) // warm up both
	}
	var d, s []time.Duration
	b.ResetTimer()
	for range b.N {
		d = append(d, timeCall(b, direct))
		s = append(s, timeCall(b, shared))
	}
	b.StopTimer()
	dp50, dp99 := quantiles(d)
	sp50, sp99 := quantiles(s)
	b.ReportMetric(float64(dp50.Microseconds()), "direct-p50-µs")
	b.ReportMetric(float64(dp99.Microseconds()), "direct-p99-µs")
	b.ReportMetric(float64(sp50.Microseconds()), "session-p50-µs")
	b.ReportMetric(float64(sp99.Microseconds()), "session-p99-µs")
	b.ReportMetric(float64(sp50)/float64(dp50), "p50-ratio")
	b.ReportMetric(float64(sp99)/float64(dp99), "p99-ratio")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkUntilWake measures how long after a job prints a line an
// agent's waiting job_status (until that line) returns: the job prints
// its own clock, the agent compares it with its own at the answer
// (both in this machine's CLOCK_REALTIME), through the session.
func BenchmarkUntilWake(b *testing.B) {
	w := newWorld(b)
	cs, _ := w.agent("agent", "--linger", "1s")
	// The job prints "tick N <unix ns>" when its fifo-free loop sees a
	// new request file; simpler: a tick every 50 ms, and the agent waits
	// for the next tick each time.
	cmd := w.job(`i=0; while :; do i=$((i+1)); echo "tick $i $(date +%s%N)"; sleep 0.05; done`)
	out := callText(b, cs, "background", map[string]any{"command": cmd, "tty": false})
	if !strings.Contains(out, "job 0") {
		b.Fatalf("background: %s", out)
	}
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		res := callText(b, cs, "job_status", map[string]any{"id": 0, "wait": 5, "until": "tick"})
		got := time.Now()
		ns := lastTick(res)
		if ns == 0 {
			b.Fatalf("no tick in %s", res)
		}
		lat = append(lat, got.Sub(time.Unix(0, ns)))
	}
	b.StopTimer()
	p50, p99 := quantiles(lat)
	b.ReportMetric(float64(p50.Microseconds()), "p50-µs")
	b.ReportMetric(float64(p99.Microseconds()), "p99-µs")
	b.ReportMetric(0, "ns/op")
	callText(b, cs, "job_kill", map[string]any{"id": 0, "grace": 0})
}

// lastTick is the clock of the last "tick N ns" line in a result.
func lastTick(res string) int64 {
	var ns int64
	for _, l := range strings.Split(res, "\n") {
		f := strings.Fields(l)
		if len(f) == 4 && f[1] == "tick" {
			if v, err := strconv.ParseInt(f[3], 10, 64); err == nil {
				ns = v
			}
		}
	}
	return ns
}

func quantiles(d []time.Duration) (p50, p99 time.Duration) {
	if len(d) == 0 {
		return 0, 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2], s[min(len(s)-1, len(s)*99/100)]
}

func timeCall(b *testing.B, cs *mcp.ClientSession) time.Duration {
	start := time.Now()
	callList(b, cs)
	return time.Since(start)
}

func callList(b *testing.B, cs *mcp.ClientSession) {
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "job_status", Arguments: map[string]any{}}); err != nil {
		b.Fatal(err)
	}
}

// callText calls a tool and returns its text; a tool error fails b.
func callText(b *testing.B, cs *mcp.ClientSession, tool string, args map[string]any) string {
	b.Helper()
	return testkit.CallTool(b, cs, time.Minute, tool, args, false)
}

// BenchmarkIngestThroughSession runs `yes | head -c 256M` as a job of a
// session (started by an agent through `jobdeck --serve`, waited for with
// job_status) and, in the same iteration, the same job in a private core
// (`jobdeck --serve --private`), and the same command with its stdout read
// and discarded by this process (the trivial reader: the physical limit of
// the pipe or the pty). It reports each job's time over the trivial
// reader's. Target: session ≤ 1.25.
//
//	go test ./session -run '^$' -bench IngestThroughSession -benchtime 3x
func BenchmarkIngestThroughSession(b *testing.B) {
	const cmd = "yes | head -c 256M"
	for _, tty := range []bool{false, true} {
		name := "pipe"
		if tty {
			name = "pty"
		}
		b.Run(name, func(b *testing.B) {
			w := newWorld(b)
			// Typed results: jobElapsed reads the structured content.
			shared, _ := w.agent("agent", "--linger", "1s", "--structured")
			private, _ := w.agent("agent", "--private", "--structured")
			var inSession, inPrivate, trivial time.Duration
			for i := range b.N {
				trivial += testkit.FloodRead(b, cmd, tty, nil)
				for _, run := range []struct {
					cs  *mcp.ClientSession
					sum *time.Duration
				}{{shared, &inSession}, {private, &inPrivate}} {
					out := callText(b, run.cs, "background", map[string]any{"command": fmt.Sprintf("%s # %d", cmd, i), "tty": tty})
					*run.sum += jobElapsed(b, run.cs, lastID(b, out))
				}
			}
			b.ReportMetric(float64(inSession.Milliseconds())/float64(b.N), "ms-session")
			b.ReportMetric(float64(inPrivate.Milliseconds())/float64(b.N), "ms-private")
			b.ReportMetric(float64(trivial.Milliseconds())/float64(b.N), "ms-trivial")
			b.ReportMetric(inSession.Seconds()/trivial.Seconds(), "session/trivial")
			b.ReportMetric(inPrivate.Seconds()/trivial.Seconds(), "private/trivial")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// lastID is the job ID a background report names ("job 3 running …").
func lastID(b *testing.B, report string) int {
	var id int
	if _, err := fmt.Sscanf(report, "job %d", &id); err != nil {
		b.Fatalf("no job ID in %q", report)
	}
	return id
}

// jobElapsed waits for job id to end and returns how long it ran (the
// report's elapsed_seconds: leader start to exit, from the supervisor).
func jobElapsed(b *testing.B, cs *mcp.ClientSession, id int) time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "job_status", Arguments: map[string]any{"id": id, "wait": 170}})
	if err != nil || res.IsError {
		b.Fatalf("job_status: %v %+v", err, res)
	}
	m, ok := res.StructuredContent.(map[string]any)
	if !ok {
		b.Fatalf("no structured content: %#v", res.StructuredContent)
	}
	if st, _ := m["state"].(string); st != "exited" {
		b.Fatalf("job %d is %v, not exited", id, m["state"])
	}
	sec, _ := m["elapsed_seconds"].(float64)
	return time.Duration(sec * float64(time.Second))
}
