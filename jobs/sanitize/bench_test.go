package sanitize

import (
	"strings"
	"testing"
	"time"
)

// Benchmark lines: (a) plain ASCII, 80 characters; (b) a test-runner line
// with a few SGR colour runs; (c) every payload of case 23 on one line.
var (
	benchASCII = "2026-01-02T15:04:05Z INFO server listening on http://127.0.0.1:8080 pid=4242 ok."
	benchSGR   = esc + "[32m✓" + esc + "[0m " + esc + "[1mTestParseConfig" + esc + "[0m (0.01s) " +
		esc + "[33mwarn:" + esc + "[0m retrying " + esc + "[38;5;244mconnect tcp 127.0.0.1:5432" + esc + "[m"
	benchHostile = func() string {
		var b strings.Builder
		for _, it := range case23 {
			b.WriteString(it.payload)
		}
		return b.String()
	}()
)

// sinkString and sinkBytes keep results alive so the loops are not removed.
var (
	sinkString string
	sinkBytes  []byte
)

func TestBenchASCIIIsFastPath(t *testing.T) {
	t.Parallel()
	if len(benchASCII) != 80 || !printableASCII([]byte(benchASCII)) {
		t.Fatalf("benchASCII is %d bytes, printable ASCII %v; want 80 and true", len(benchASCII), printableASCII([]byte(benchASCII)))
	}
}

// benchString runs f over line b.N times after timing b.N plain
// []byte->string copies of the same line, and reports f's time as a multiple
// of the copy's ("x_copy").
func benchString(b *testing.B, line string, f func([]byte) string) {
	in := []byte(line)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	t0 := time.Now()
	for range b.N {
		sinkString = string(in)
	}
	base := time.Since(t0)
	b.ResetTimer()
	for range b.N {
		sinkString = f(in)
	}
	b.StopTimer()
	reportRatio(b, base)
}

// benchAppend is benchString for the Append variants: a reused buffer, the
// baseline appending the raw line to it.
func benchAppend(b *testing.B, line string, f func([]byte, []byte) []byte) {
	in := []byte(line)
	buf := make([]byte, 0, 4*len(in)+64)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	t0 := time.Now()
	for range b.N {
		buf = append(buf[:0], in...)
	}
	base := time.Since(t0)
	sinkBytes = buf
	b.ResetTimer()
	for range b.N {
		buf = f(buf[:0], in)
	}
	b.StopTimer()
	sinkBytes = buf
	reportRatio(b, base)
}

// reportRatio reports the timed loop's duration over the baseline's, both
// for b.N iterations, as "x_copy".
func reportRatio(b *testing.B, base time.Duration) {
	b.ReportMetric(float64(b.Elapsed())/float64(max(base, 1)), "x_copy")
}

var benchLines = []struct{ name, line string }{
	{"ascii80", benchASCII},
	{"sgr", benchSGR},
	{"hostile", benchHostile},
}

func BenchmarkPlain(b *testing.B) {
	for _, l := range benchLines {
		b.Run(l.name, func(b *testing.B) { benchString(b, l.line, Plain) })
	}
}

func BenchmarkStyled(b *testing.B) {
	for _, l := range benchLines {
		b.Run(l.name, func(b *testing.B) { benchString(b, l.line, Styled) })
	}
}

func BenchmarkAppendPlain(b *testing.B) {
	for _, l := range benchLines {
		b.Run(l.name, func(b *testing.B) { benchAppend(b, l.line, AppendPlain) })
	}
}

func BenchmarkAppendStyled(b *testing.B) {
	for _, l := range benchLines {
		b.Run(l.name, func(b *testing.B) { benchAppend(b, l.line, AppendStyled) })
	}
}

// BenchmarkStyledFrame renders what the UI renders per frame at most: 8 panes
// of 60 lines, here 80% plain ASCII, 15% coloured and 5% hostile. One op is
// one frame; the UI needs 30 a second.
func BenchmarkStyledFrame(b *testing.B) {
	frame := make([][]byte, 0, 8*60)
	for i := range 8 * 60 {
		switch {
		case i%20 == 0:
			frame = append(frame, []byte(benchHostile))
		case i%20 < 4:
			frame = append(frame, []byte(benchSGR))
		default:
			frame = append(frame, []byte(benchASCII))
		}
	}
	b.ReportAllocs()
	t0 := time.Now()
	for range b.N {
		for _, l := range frame {
			sinkString = string(l)
		}
	}
	base := time.Since(t0)
	b.ResetTimer()
	for range b.N {
		for _, l := range frame {
			sinkString = Styled(l)
		}
	}
	b.StopTimer()
	reportRatio(b, base)
}
