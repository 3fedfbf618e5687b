package serve

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// BenchmarkTokenCheck: the token check's cost per HTTP call, beside the
// whole call (a ping in an MCP session over loopback, to an in-process
// server) in the same run, as the ratio check/call.
//
//	go test ./serve -run '^$' -bench TokenCheck -benchtime 2s
func BenchmarkTokenCheck(b *testing.B) {
	h := serveHTTPBench(b)
	id := initSession(b, h)
	url := "http://" + h.addr + "/mcp"
	body := testkit.LinePing("1")
	check := newBearer(testToken)
	r, _ := http.NewRequest(http.MethodPost, url, nil)
	r.Header.Set("Authorization", "Bearer "+testToken)
	var inCheck, inCall time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		for range 64 {
			if !check.allows(r) {
				b.Fatal("refused")
			}
		}
		t1 := time.Now()
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set(sessionHeader, id)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("ping: %v %v", resp, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		inCheck += t1.Sub(t0) / 64
		inCall += time.Since(t1)
		n++
	}
	b.ReportMetric(float64(inCheck.Nanoseconds())/float64(n), "check-ns/call")
	b.ReportMetric(float64(inCall.Nanoseconds())/float64(n), "call-ns")
	b.ReportMetric(float64(inCheck)/float64(inCall), "check/call")
}
