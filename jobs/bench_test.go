//go:build linux

package jobs

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/model"
)

// The ingest benchmarks run the same flooding command four ways in every
// iteration and report the ratios:
//
//	null     the command writing to /dev/null (what it costs on its own)
//	trivial  its stdout on a pipe or a raw pty, read and discarded: the
//	         physical limit of the transport
//	ring     the same transport read by the job reader (pump into a ring):
//	         jobdeck's ingest path alone
//	table    the whole job through Table.Start: supervisor, pty or pipes,
//	         readers, ring, until the job is done
//
// Target: ring/trivial ≤ 1.25 for yes and seq, on pty and pipes.
// Run: go test ./jobs -run '^$' -bench Ingest -benchtime 5x

var floods = []struct{ name, cmd string }{
	{"yes-256MiB", "yes | head -c 256M"},
	{"seq-20M", "seq 20000000"},
}

func discard(r io.Reader) {
	buf := make([]byte, readBuf)
	for {
		if _, err := r.Read(buf); err != nil {
			return
		}
	}
}

func BenchmarkIngest(b *testing.B) {
	for _, f := range floods {
		for _, tty := range []bool{false, true} {
			transport := "pipe"
			if tty {
				transport = "pty"
			}
			b.Run(f.name+"/"+transport, func(b *testing.B) {
				tb, err := New(Options{StartWait: -1, MaxFinished: 1})
				if err != nil {
					b.Fatal(err)
				}
				defer tb.Close(b.Context())
				var null, trivial, ringed, table time.Duration
				for b.Loop() {
					t0 := time.Now()
					if err := exec.Command("bash", "-c", f.cmd+" >/dev/null").Run(); err != nil {
						b.Fatal(err)
					}
					null += time.Since(t0)
					trivial += testkit.FloodRead(b, f.cmd, tty, discard)
					var r ring
					poke := make(chan struct{}, 1)
					ringed += testkit.FloodRead(b, f.cmd, tty, func(rd io.Reader) { pump(rd, model.StreamOut, &r, poke) })
					t0 = time.Now()
					rep, err := tb.Start(b.Context(), model.Spec{Command: f.cmd, NoTTY: !tty})
					if err != nil {
						b.Fatal(err)
					}
					for s, _ := tb.Snapshot(rep.Job.ID); !s.Done; s, _ = tb.Snapshot(rep.Job.ID) {
						time.Sleep(time.Millisecond)
					}
					table += time.Since(t0)
				}
				n := float64(b.N)
				b.ReportMetric(null.Seconds()*1000/n, "ms-null")
				b.ReportMetric(trivial.Seconds()*1000/n, "ms-trivial")
				b.ReportMetric(ringed.Seconds()*1000/n, "ms-ring")
				b.ReportMetric(table.Seconds()*1000/n, "ms-table")
				b.ReportMetric(ringed.Seconds()/trivial.Seconds(), "ring/trivial")
				b.ReportMetric(table.Seconds()/trivial.Seconds(), "table/trivial")
			})
		}
	}
}

// BenchmarkRingWrite measures the ring alone on chunks as a pipe delivers
// them, against copying the same bytes (the least any store must do).
func BenchmarkRingWrite(b *testing.B) {
	for _, lineLen := range []int{2, 8, 80, 4096} {
		b.Run(fmt.Sprintf("line%d", lineLen), func(b *testing.B) {
			chunk := []byte(strings.Repeat(strings.Repeat("x", lineLen-1)+"\n", (16<<10)/lineLen))
			dst := make([]byte, len(chunk))
			var r ring
			now := time.Now()
			b.SetBytes(int64(len(chunk)))
			var base time.Duration
			t0 := time.Now()
			for range 1000 {
				copy(dst, chunk)
			}
			base = time.Since(t0) / 1000
			b.ResetTimer()
			for b.Loop() {
				r.write(model.StreamOut, chunk, now)
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(base), "x-memcpy")
		})
	}
}

// rssEnv makes the test binary fill 8 rings in a child process (see
// TestRSSChild) so that its peak RSS can be measured alone.
const rssEnv = "JOBDECK_TEST_RSS"

// BenchmarkRSS8FullRings measures the peak RSS of a jobdeck-like process
// (a Table) holding 8 jobs whose rings are full of maximum-length lines,
// against the same process with 8 jobs that printed one short line.
// Target: ≤ 64 MiB.
func BenchmarkRSS8FullRings(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads /proc/self/status")
	}
	measure := func(mode string) float64 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRSSChild$")
		cmd.Env = append(os.Environ(), rssEnv+"="+mode)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		i := strings.Index(string(out), "VmHWM-KiB ")
		if i < 0 {
			b.Fatalf("no measurement in:\n%s", out)
		}
		kib, _ := strconv.Atoi(strings.Fields(string(out[i:]))[1])
		return float64(kib) / 1024
	}
	var full, idle float64
	for b.Loop() {
		full = max(full, measure("full"))
		idle = max(idle, measure("idle"))
	}
	b.ReportMetric(full, "MiB-peak-8-full")
	b.ReportMetric(idle, "MiB-peak-8-idle")
	b.ReportMetric(full/idle, "full/idle")
}

// TestRSSChild is the measured process of BenchmarkRSS8FullRings; it only
// runs when started by it.
func TestRSSChild(t *testing.T) {
	mode := os.Getenv(rssEnv)
	if mode == "" {
		t.Skip("only runs as the child of BenchmarkRSS8FullRings")
	}
	tb, err := New(Options{StartWait: -1})
	if err != nil {
		t.Fatal(err)
	}
	// Each job prints 3000 lines of twice LineCap: every line is cut to
	// LineCap, and the ring ends full to its byte budget.
	cmd := fmt.Sprintf(`yes "$(head -c %d /dev/zero | tr '\0' y)" | head -n 3000`, 2*LineCap)
	if mode == "idle" {
		cmd = "echo one short line"
	}
	for i := range 8 {
		if _, err := tb.Start(t.Context(), model.Spec{Command: fmt.Sprintf("%s # %d", cmd, i), NoTTY: true}); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range tb.List() {
		for !s.Done {
			time.Sleep(20 * time.Millisecond)
			s, _ = tb.Snapshot(s.ID)
		}
		if mode == "full" {
			p, _ := tb.Read(s.ID, model.ReadRequest{Tail: true, Limit: 1})
			if len(p.Lines) == 0 || len(p.Lines[0].Text) != LineCap {
				t.Fatalf("job %d: ring not full of max-length lines", s.ID)
			}
		}
	}
	status, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			fmt.Println("VmHWM-KiB", strings.Fields(l)[1])
		}
	}
	_ = tb.Close(t.Context())
}
