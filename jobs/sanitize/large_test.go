package sanitize

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testtimeout"
)

// TestLargeHostileLines feeds 1 MiB lines of repeated escape introducers,
// tabs and random bytes: the invariants hold and each line takes time linear
// in its length (checked only as a coarse bound: a quadratic walk over 1 MiB
// would take minutes). Under the race detector, which makes this
// single-goroutine code 10 to 20 times slower and has no race to find in
// it, the lines are 128 KiB.
func TestLargeHostileLines(t *testing.T) {
	t.Parallel()
	size := 1 << 20
	if testtimeout.Race {
		size = 128 << 10
	}
	rep := func(s string) []byte { return []byte(strings.Repeat(s, size/len(s))) }
	random := make([]byte, size)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"osc introducers", rep(esc + "]")},
		{"csi introducers", rep(esc + "[")},
		{"dcs introducers", rep(esc + "P")},
		{"escs", rep(esc)},
		{"osc with 9c bytes, unterminated", append([]byte(esc+"]0;"), rep("本")...)},
		{"osc with 9c bytes, cancelled", rep(esc + "]0;本")},
		{"sgr params", append(append([]byte(esc+"["), rep("38:2::1:2:3;")...), 'm')},
		{"sgr runs", rep(esc + "[31mx")},
		{"tabs", rep("\t")},
		{"wide and tabs", rep("本\t")},
		{"C1 bytes", rep("\x9b\x9d\x90\x9c")},
		{"random bytes", random},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			checkAll(t, tc.in)
			if d, bound := time.Since(start), testtimeout.Scale(20*time.Second); d > bound {
				t.Errorf("checking a %d-byte line took %v; want well under %v", len(tc.in), d, bound)
			}
		})
	}
}
