//go:build linux

package session

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// BenchmarkStatus50Relay measures a job_status that returns 50 lines
// through the default path (`jobdeck --serve` relaying to its session,
// results as text), beside the go-sdk's plainest tool returning a reply of
// the same size (testkit.BaselineServer, its own process), call for call,
// alternating: p50 and p99 of both and the p50 ratio (target ≤ 1.5); then
// the p99 of the same call while 8 jobs flood their ptys.
//
//	go test ./session -run '^$' -bench Status50Relay -benchtime 400x
func BenchmarkStatus50Relay(b *testing.B) {
	w := newWorld(b)
	cs, _ := w.agent("bench", "--linger", "1s")
	base := baselineAgent(b)
	callText(b, cs, "background", map[string]any{"command": w.job(`for i in $(seq 1 100); do echo "line $i of the build output, some words"; done; sleep 600`), "name": "build"})
	args := map[string]any{"id": "build", "lines": 50}
	testkit.WaitFor(b, 30*time.Second, "50 lines", func() bool {
		return strings.Count(callText(b, cs, "job_status", args), "\n> ") >= 50
	})
	size := wireSize(b, cs, "job_status", args)
	baseArgs := map[string]any{"size": size - wireSize(b, base, "reply", map[string]any{"size": 0})}
	if got := wireSize(b, base, "reply", baseArgs); got != size {
		b.Fatalf("baseline reply %d bytes, jobdeck's %d", got, size)
	}
	// The same call to `jobdeck --serve --private` (the core in its own
	// process, no relay), to tell the relay's part from the server's.
	private, _ := w.agent("bench", "--private")
	callText(b, private, "background", map[string]any{"command": w.job(`for i in $(seq 1 100); do echo "line $i of the build output, some words"; done; sleep 600`), "name": "build"})
	testkit.WaitFor(b, 30*time.Second, "50 lines", func() bool {
		return strings.Count(callText(b, private, "job_status", args), "\n> ") >= 50
	})
	var direct []time.Duration
	ours, theirs := alternate(b, b.N, cs, args, base, baseArgs, func() {
		t0 := time.Now()
		callText(b, private, "job_status", args)
		direct = append(direct, time.Since(t0))
	})
	dp50, _ := quantiles(direct)
	b.ReportMetric(msOf(dp50), "private-p50-ms")
	b.ReportMetric(float64(dp50)/float64(quantiles1(theirs)), "private-p50-ratio")
	callText(b, private, "job_kill", map[string]any{"id": "build", "grace": 0})
	p50, p99 := quantiles(ours)
	bp50, bp99 := quantiles(theirs)
	b.ReportMetric(float64(size), "reply-bytes")
	b.ReportMetric(msOf(p50), "p50-ms")
	b.ReportMetric(msOf(bp50), "base-p50-ms")
	b.ReportMetric(float64(p50)/float64(bp50), "p50-ratio")
	b.ReportMetric(msOf(p99), "p99-ms")
	b.ReportMetric(msOf(bp99), "base-p99-ms")

	callText(b, cs, "job_kill", map[string]any{"id": "build", "grace": 0})
	for i := range 8 {
		callText(b, cs, "background", map[string]any{"command": w.job(fmt.Sprintf("yes 'flood %d: all work and no play makes jack a dull boy'", i))})
	}
	during, baseDuring := alternate(b, max(b.N, 100), cs, map[string]any{"id": 1, "lines": 50}, base, baseArgs, func() {})
	fp50, fp99 := quantiles(during)
	_, bfp99 := quantiles(baseDuring)
	b.ReportMetric(msOf(fp50), "flood-p50-ms")
	b.ReportMetric(msOf(fp99), "flood-p99-ms")
	b.ReportMetric(msOf(bfp99), "flood-base-p99-ms")
	for i := range 8 {
		callText(b, cs, "job_kill", map[string]any{"id": 1 + i, "grace": 0})
	}
	b.ReportMetric(0, "ns/op")
}

// baselineAgent connects to the go-sdk's plainest server: this test
// binary as the mcp-baseline role.
func baselineAgent(b *testing.B) *mcp.ClientSession {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), roleEnv+"=mcp-baseline")
	return testkit.Agent(b, cmd, "bench")
}

// quantiles1 is the p50 of d.
func quantiles1(d []time.Duration) time.Duration { p50, _ := quantiles(d); return p50 }

// alternate calls tool job_status with args on cs and reply with baseArgs
// on base, n times each, one after the other, then also, each time, also;
// it returns the first two's timings.
func alternate(b *testing.B, n int, cs *mcp.ClientSession, args map[string]any, base *mcp.ClientSession, baseArgs map[string]any, also func()) (ours, theirs []time.Duration) {
	for range n {
		also()
		t0 := time.Now()
		callText(b, cs, "job_status", args)
		t1 := time.Now()
		callText(b, base, "reply", baseArgs)
		ours, theirs = append(ours, t1.Sub(t0)), append(theirs, time.Since(t1))
	}
	return ours, theirs
}

// wireSize is the bytes of a call's result as it goes over the wire.
func wireSize(b *testing.B, cs *mcp.ClientSession, tool string, args map[string]any) int {
	res, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		b.Fatalf("%s: %v %v", tool, err, res)
	}
	j, _ := json.Marshal(res)
	return len(j)
}

func msOf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
