package serve

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The benchmarks drive the real binary (jobdeck --serve --private) over
// stdio with the go-sdk client, each beside its baseline in the same run.

// benchCall calls a tool and fails the benchmark on any error.
func benchCall(b *testing.B, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	b.Helper()
	res, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		b.Fatalf("%s %v: %v %v", name, args, err, res)
	}
	return res
}

// stopServe ends a jobdeck --serve of a benchmark.
func stopServe(cs *mcp.ClientSession, cmd *exec.Cmd) {
	cs.Close()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
	}
}

// baseline connects to the go-sdk's plainest server (this binary as
// mcp-baseline): one tool that returns a text of a given size.
func baseline(b *testing.B) *mcp.ClientSession {
	b.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil)
	cs, err := client.Connect(b.Context(), &mcp.CommandTransport{Command: exec.Command(helperLink(b, "mcp-baseline"))}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

// replySize is the bytes of a result as it goes over the wire.
func replySize(res *mcp.CallToolResult) int {
	j, _ := json.Marshal(res)
	return len(j)
}

// quantile is the q-quantile of ds (sorted in place).
func quantile(ds []time.Duration, q float64) time.Duration {
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

// BenchmarkStatus50 measures a job_status that returns 50 lines beside the
// go-sdk's trivial tool returning a reply of the same size, call for call,
// alternating: p50 of both and their ratio; then the p99 of the same
// job_status while 8 jobs flood.
//
//	go test ./serve -run '^$' -bench Status50 -benchtime 400x
func BenchmarkStatus50(b *testing.B) {
	// The default results, text alone (startServe's are typed).
	cs, cmd := startServeIn(b, &recorder{}, os.Stderr, b.TempDir(), nil, "--private", "--grace", "2s")
	defer stopServe(cs, cmd)
	base := baseline(b)
	benchCall(b, cs, toolBackground, map[string]any{"command": `for i in $(seq 1 100); do echo "line $i of the build output, some words"; done; sleep 600`, "name": "build"})
	args := map[string]any{"id": "build", "lines": 50}
	for {
		if strings.Count(textOf(benchCall(b, cs, toolStatus, args)), "\n> ") >= 50 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	size := replySize(benchCall(b, cs, toolStatus, args))
	baseArgs := map[string]any{"size": size - replySize(benchCall(b, base, "reply", map[string]any{"size": 0}))}
	if got := replySize(benchCall(b, base, "reply", baseArgs)); got != size {
		b.Fatalf("baseline reply %d bytes, jobdeck's %d", got, size)
	}
	ours, theirs := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		benchCall(b, cs, toolStatus, args)
		t1 := time.Now()
		benchCall(b, base, "reply", baseArgs)
		ours, theirs = append(ours, t1.Sub(t0)), append(theirs, time.Since(t1))
	}
	b.StopTimer()
	p50, base50 := quantile(ours, 0.5), quantile(theirs, 0.5)
	b.ReportMetric(float64(size), "reply-bytes")
	b.ReportMetric(ms(p50), "p50-ms")
	b.ReportMetric(ms(base50), "base-p50-ms")
	b.ReportMetric(float64(p50)/float64(base50), "p50-ratio")
	b.ReportMetric(ms(quantile(ours, 0.99)), "p99-ms")

	// The same call while 8 jobs flood their ptys.
	benchCall(b, cs, toolKill, map[string]any{"id": "build", "grace": 0})
	for i := range 8 {
		benchCall(b, cs, toolBackground, map[string]any{"command": fmt.Sprintf("yes 'flood %d: all work and no play makes jack a dull boy'", i)})
	}
	flood := map[string]any{"id": 1, "lines": 50}
	var during, baseDuring []time.Duration
	for range max(b.N, 100) {
		t0 := time.Now()
		benchCall(b, cs, toolStatus, flood)
		t1 := time.Now()
		benchCall(b, base, "reply", baseArgs)
		during, baseDuring = append(during, t1.Sub(t0)), append(baseDuring, time.Since(t1))
	}
	b.ReportMetric(ms(quantile(during, 0.5)), "flood-p50-ms")
	b.ReportMetric(ms(quantile(during, 0.99)), "flood-p99-ms")
	b.ReportMetric(ms(quantile(baseDuring, 0.99)), "flood-base-p99-ms")
	for i := range 8 {
		benchCall(b, cs, toolKill, map[string]any{"id": 1 + i, "grace": 0})
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkServeRSS reads a full ring of 8 KiB lines (512 of them fill
// its 4 MiB) with the largest budget (256 KiB), once and then b.N times,
// and reports jobdeck's peak RSS after the first read and after them all
// against its RSS before them.
//
//	go test ./serve -run '^$' -bench ServeRSS -benchtime 20x
func BenchmarkServeRSS(b *testing.B) {
	cs, cmd := startServe(b, &recorder{}, os.Stderr)
	defer stopServe(cs, cmd)
	fill := `for i in $(seq 1 600); do head -c 8191 /dev/zero | tr '\0' x; echo; done`
	benchCall(b, cs, toolBackground, map[string]any{"command": fill, "wait": 120, "tty": false})
	status := filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "status")
	// Reset the peak to the current RSS (proc(5), clear_refs 5), so that
	// it measures the reads alone.
	if err := os.WriteFile(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "clear_refs"), []byte("5"), 0); err != nil {
		b.Skipf("cannot reset the peak RSS: %v", err)
	}
	before := procKiB(b, status, "VmRSS")
	args := map[string]any{"id": 0, "lines": 2000, "max_bytes": 262144}
	if n := len(textOf(benchCall(b, cs, toolStatus, args))); n < 250000 {
		b.Fatalf("a read of %d bytes; want one near its 256 KiB budget", n)
	}
	first := procKiB(b, status, "VmHWM")
	b.ResetTimer()
	for b.Loop() {
		benchCall(b, cs, toolStatus, args)
	}
	b.StopTimer()
	peak := procKiB(b, status, "VmHWM")
	b.ReportMetric(float64(before)/1024, "before-MiB")
	b.ReportMetric(float64(first)/float64(before), "first-read-peak/before")
	b.ReportMetric(float64(peak)/float64(before), "peak/before")
}

// procKiB reads a "Name: N kB" field of a /proc status file.
func procKiB(b *testing.B, file, name string) int {
	b.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(string(data)) {
		if v, ok := strings.CutPrefix(line, name+":"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
	}
	b.Fatalf("no %s in %s", name, file)
	return 0
}
