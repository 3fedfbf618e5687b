//go:build unix

package vhs

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"

	"github.com/jobdeck/jobdeck/session"
)

// What a user meets, measured in a real terminal multiplexer: tmux runs
// jobdeck (and, for the baselines, cat or nothing) in sessions of its
// own server; a Term (a pty and a terminal emulator) is the user's
// terminal, attached to tmux as its client.

// floodLines is how many coloured lines a second each floodJob prints.
const floodLines = 20000

// floodJob prints floodLines numbered coloured lines a second (a batch of
// a thousand every 50 ms) for a minute: a steady flood, so that the same
// output is read with and without a screen however busy the machine is
// (a job flooding as fast as it can prints less when the console takes
// CPU from it). i makes each command different (the core starts a command
// only once).
func floodJob(i int) string {
	return fmt.Sprintf(`l=(); for j in $(seq 1000); do printf -v s '\033[32mok\033[0m %%04d all work and no play \033[1;31mmakes\033[0m jack' $j; l+=("$s"); done; `+
		`end=$((SECONDS+60)); while [ $SECONDS -lt $end ]; do printf '%%s\n' "${l[@]}"; sleep 0.05; done # flood %d`, i)
}

// benchTmux starts a private tmux server whose panes are exactly cols ×
// rows (no status line) and whose jobdeck sessions live in a directory of
// this benchmark (also set in this process, so session.List sees them).
func benchTmux(b *testing.B) *tmuxServer {
	b.Helper()
	srv := newTmux(b)
	for _, kv := range srv.env {
		if k, v, _ := strings.Cut(kv, "="); k == session.EnvDir {
			if err := os.MkdirAll(v, 0o700); err != nil {
				b.Fatal(err)
			}
			b.Setenv(session.EnvDir, v)
		}
	}
	return srv
}

// open starts tmux session name (cols × rows, bash at the prompt) and
// attaches a client to it in a Term of that size, as a user's terminal.
func (s *tmuxServer) open(name string, cols, rows int) *Term {
	s.t.Helper()
	s.start(name, cols, rows)
	s.must("set-option", "-g", "status", "off")
	term, err := StartTerm(TermOptions{Argv: []string{"tmux", "-L", s.socket, "-f", "/dev/null", "attach", "-t", name}, Env: s.env, Cols: cols, Rows: rows})
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { _ = term.Close(5 * time.Second) })
	waitScreen(s.t, term, "Line", `>\s*$`, 10*time.Second)
	return term
}

// typeAndSee types c into term and returns how long it took until the
// cursor's line ended with want (what the line should read now), polling
// the emulator every 200 µs.
func typeAndSee(b *testing.B, term *Term, c, want string) time.Duration {
	start := time.Now()
	term.SendText(c)
	deadline := start.Add(10 * time.Second)
	for !strings.HasSuffix(strings.TrimRight(term.CurrentLine(), " "), want) {
		if time.Now().After(deadline) {
			b.Fatalf("%q never showed (the line should end with %q):\n%s", c, want, term.Screen())
		}
		time.Sleep(200 * time.Microsecond)
	}
	return time.Since(start)
}

// keyChars are typed one after the other; none of them is in a flood's
// lines or in jobdeck's frame, so only the echo of the key shows them.
const keyChars = "@#%^~&*+="

// BenchmarkKeyToScreen measures how long a key takes to show in tmux,
// typed into jobdeck's palette, beside the same keys typed into cat (the
// tty's echo: the fastest any program can be) in the same run, samples
// interleaved: idle, and while 8 jobs flood coloured lines. Each sample is
// one key, from the write into the user's terminal to the emulator showing
// it; the keys go through the tmux client and server both ways. Reported:
// p50 and p90 of each, and jobdeck's p50 over cat's (target ≤ 1.5).
//
//	go test ./vhs -run '^$' -bench KeyToScreen -benchtime 200x
func BenchmarkKeyToScreen(b *testing.B) {
	for _, floods := range []int{0, 8} {
		b.Run(fmt.Sprintf("floods=%d", floods), func(b *testing.B) {
			srv := benchTmux(b)
			cat := srv.open("cat", 200, 60)
			typeLine(cat, "cat")
			deck := srv.open("deck", 200, 60)
			cmd := "jobdeck"
			for i := range floods {
				cmd += " " + shellQuote(floodJob(i))
			}
			typeLine(deck, cmd)
			if floods > 0 {
				waitScreen(b, deck, "Screen", fmt.Sprintf(`%d/8 running`, floods), 30*time.Second)
			} else {
				waitScreen(b, deck, "Screen", `No jobs yet`, 30*time.Second)
			}
			deck.SendText("/")
			waitScreen(b, deck, "Line", `^/\s*$`, 10*time.Second)
			var catLat, deckLat []time.Duration
			b.ResetTimer()
			for i := range b.N {
				n := i % len(keyChars)
				if n == 0 && i > 0 {
					// Start the lines again: Enter for cat, Ctrl+U for
					// the palette (it keeps the palette open).
					cat.SendKey(uv.KeyPressEvent{Code: vt.KeyEnter})
					deck.SendKey(uv.KeyPressEvent{Code: 'u', Mod: uv.ModCtrl})
					waitScreen(b, cat, "Line", `^\s*$`, 10*time.Second)
					waitScreen(b, deck, "Line", `^\s*$`, 10*time.Second)
				}
				c, want := keyChars[n:n+1], keyChars[:n+1]
				// A person types at any moment of the console's frame
				// clock, not right after the last frame: pause a random
				// while before each key.
				time.Sleep(time.Duration(rand.IntN(40_000)) * time.Microsecond)
				catLat = append(catLat, typeAndSee(b, cat, c, want))
				time.Sleep(time.Duration(rand.IntN(40_000)) * time.Microsecond)
				deckLat = append(deckLat, typeAndSee(b, deck, c, want))
			}
			b.StopTimer()
			deck.SendKey(uv.KeyPressEvent{Code: vt.KeyEscape})
			deck.SendText("q")
			deck.SendText("y")
			cp50, cp90 := quantiles(catLat)
			dp50, dp90 := quantiles(deckLat)
			b.ReportMetric(ms(cp50), "cat-p50-ms")
			b.ReportMetric(ms(cp90), "cat-p90-ms")
			b.ReportMetric(ms(dp50), "jobdeck-p50-ms")
			b.ReportMetric(ms(dp90), "jobdeck-p90-ms")
			b.ReportMetric(float64(dp50)/float64(cp50), "x-cat-p50")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func quantiles(d []time.Duration) (p50, p90 time.Duration) {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2], s[min(len(s)-1, len(s)*9/10)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// procTicks is a process's user+system CPU time so far (/proc/<pid>/stat
// fields 14 and 15, in clock ticks of 10 ms).
func procTicks(b *testing.B, pid int) time.Duration {
	raw, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		b.Fatalf("read the CPU time of pid %d: %v", pid, err)
	}
	s := string(raw)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// cpuOf returns the CPU each pid used over d, in percent of one core.
func cpuOf(b *testing.B, d time.Duration, pids ...int) []float64 {
	t0 := make([]time.Duration, len(pids))
	for i, p := range pids {
		t0[i] = procTicks(b, p)
	}
	start := time.Now()
	time.Sleep(d)
	el := time.Since(start)
	out := make([]float64, len(pids))
	for i, p := range pids {
		out[i] = 100 * float64(procTicks(b, p)-t0[i]) / float64(el)
	}
	return out
}

// sessionPIDs returns the pid of the one live session and of its
// console client (0 when none is attached).
func sessionPIDs(b *testing.B) (sess, console int) {
	live, err := session.List(b.Context())
	if err != nil || len(live) != 1 {
		b.Fatalf("want one live session, got %v (%v)", live, err)
	}
	for _, c := range live[0].Info.Clients {
		if c.Kind == session.KindConsole {
			console = c.PID
		}
	}
	return live[0].Info.PID, console
}

// BenchmarkConsoleCPUInTmux measures what the console costs a user while 8
// jobs flood coloured lines (floodJob: 20,000 a second each), from outside, in percent of one core: an agent
// (jobdeck --serve) starts the floods in a session, whose process reads
// them with no screen attached; then jobdeck, the console, joins that
// session in a tmux pane of 200×60 and draws them. Reported: the session
// process alone, then the session and the console processes with the
// screen, and tmux's server (the terminal's own work, not jobdeck's); the
// console's cost is what both jobdeck processes use beyond the session
// alone (target ≤ +10).
//
//	go test ./vhs -run '^$' -bench ConsoleCPUInTmux -benchtime 1x
func BenchmarkConsoleCPUInTmux(b *testing.B) {
	const window = 8 * time.Second
	for b.Loop() {
		srv := benchTmux(b)
		agent := agentIn(b, srv.env, "flood-agent")
		for i := range 8 {
			tool(b, agent, "background", map[string]any{"command": floodJob(i)})
		}
		time.Sleep(time.Second)
		spid, _ := sessionPIDs(b)
		alone := cpuOf(b, window, spid)[0]

		srv.start("deck", 200, 60)
		srv.must("set-option", "-g", "status", "off")
		srv.must("send-keys", "-t", "deck", "jobdeck", "Enter")
		srv.waitPane("deck", `8/8 running`, 30*time.Second)
		time.Sleep(time.Second)
		_, cpid := sessionPIDs(b)
		tmuxPID, _ := strconv.Atoi(strings.TrimSpace(srv.must("display-message", "-p", "#{pid}")))
		if cpid == 0 || tmuxPID == 0 {
			b.Fatalf("console pid %d, tmux pid %d", cpid, tmuxPID)
		}
		with := cpuOf(b, window, spid, cpid, tmuxPID)
		srv.must("send-keys", "-t", "deck", "q")
		srv.must("send-keys", "-t", "deck", "y")
		_ = agent.Close()

		b.ReportMetric(alone, "session-alone-%cpu")
		b.ReportMetric(with[0], "session-with-console-%cpu")
		b.ReportMetric(with[1], "console-%cpu")
		b.ReportMetric(with[2], "tmux-%cpu")
		b.ReportMetric(with[0]+with[1]-alone, "console-cost-%cpu")
	}
}
