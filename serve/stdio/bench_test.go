package stdio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// benchMessages are lines a client sends: the small, the usual and the
// large.
func benchMessages() []struct{ name, line string } {
	call := func(id int, command string) string {
		b, _ := json.Marshal(command)
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"background","arguments":{"command":%s,"name":"web"},"_meta":{"progressToken":"p%d"}}}`, id, b, id)
	}
	return []struct{ name, line string }{
		{"ping", testkit.LinePing("1")},
		{"initialize", testkit.LineInitialize},
		{"status", `{"jsonrpc":"2.0","id":"req-42","method":"tools/call","params":{"name":"job_status","arguments":{"id":"web","since":120,"wait":30,"until":"ready|listening on"}}}`},
		{"start 200 B", call(7, "cd web && npm run dev -- --port 5173 --host 127.0.0.1 2>&1 | tee -a /tmp/dev.log; echo \"exit $?\" # "+strings.Repeat("x", 80))},
		{"start 64 KiB", call(8, strings.Repeat("echo 'all work and no play'; ", 64<<10/29))},
		{"start 1 MiB", call(9, strings.Repeat("printf '%s\\n' \"é ü 漢字\"; ", 1<<20/32))},
	}
}

// BenchmarkLineFilter: the stdio line filter's cost per message (reading
// the line and checking it) beside the SDK's own decoding of the same
// stream in the same run (its stream reader, encoding/json, and its
// message decoder), as the ratio filter/sdk. The SDK's figure leaves out
// its batch probe, so the ratio is if anything too high.
//
//	go test ./serve/stdio -run '^$' -bench LineFilter -benchtime 2s
func BenchmarkLineFilter(b *testing.B) {
	const reps = 8 // lines per timing, so that reading the clock costs little
	for _, m := range benchMessages() {
		b.Run(m.name, func(b *testing.B) {
			stream := []byte(strings.Repeat(m.line+"\n", reps))
			b.SetBytes(int64(len(stream)))
			r := bufio.NewReaderSize(nil, 64<<10) // one per session, as in Filter.copy
			var line []byte
			var filter, sdk time.Duration
			n := 0
			for b.Loop() {
				t0 := time.Now()
				r.Reset(bytes.NewReader(stream))
				for range reps {
					var err error
					line, err = readFrame(r, line[:0])
					if _, ferr, _, _ := checkFrame(line); ferr != nil || err != nil {
						b.Fatalf("filter: %v %v", ferr, err)
					}
				}
				t1 := time.Now()
				dec := json.NewDecoder(bytes.NewReader(stream)) // one per session, as in the SDK
				for range reps {
					var raw json.RawMessage
					if err := dec.Decode(&raw); err != nil {
						b.Fatal(err)
					}
					if _, err := jsonrpc.DecodeMessage(raw); err != nil {
						b.Fatal(err)
					}
				}
				filter += t1.Sub(t0)
				sdk += time.Since(t1)
				n += reps
			}
			b.ReportMetric(float64(filter.Nanoseconds())/float64(n), "filter-ns/msg")
			b.ReportMetric(float64(sdk.Nanoseconds())/float64(n), "sdk-ns/msg")
			b.ReportMetric(float64(filter)/float64(sdk), "filter/sdk")
		})
	}
}

// BenchmarkResponseWatch: what the filter adds to each message the SDK
// writes (finding whether it answers a pending call) beside the SDK's
// encoding of it, as the ratio watch/encode.
//
//	go test ./serve/stdio -run '^$' -bench ResponseWatch -benchtime 2s
func BenchmarkResponseWatch(b *testing.B) {
	text := strings.Repeat("> all work and no play\n", 50)
	res := map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "structuredContent": map[string]any{"id": 3, "lines": 50}}
	raw, _ := json.Marshal(res)
	id, _ := jsonrpc.MakeID(float64(42))
	msg := &jsonrpc.Response{ID: id, Result: raw}
	var watch, encode time.Duration
	for b.Loop() {
		t0 := time.Now()
		data, err := jsonrpc.EncodeMessage(msg)
		t1 := time.Now()
		if key, ok := responseKey(data); !ok || key != "n42" || err != nil {
			b.Fatalf("responseKey = %q, %v (%v)", key, ok, err)
		}
		watch += time.Since(t1)
		encode += t1.Sub(t0)
	}
	b.ReportMetric(float64(watch)/float64(encode), "watch/encode")
}
