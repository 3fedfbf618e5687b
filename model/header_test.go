package model

import (
	"testing"
	"time"
)

func TestHeader(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		s    Snapshot
		want string
	}{
		{"running", Snapshot{ID: 0, State: StateRunning, Started: t0, Command: "npm run dev"}, "job 0 running 0:02 npm run dev"},
		{"named exit", Snapshot{ID: 3, Name: "web", State: StateExited, Started: t0, Ended: t0.Add(time.Second), Exit: &Exit{Code: 1}, Command: "make"}, "job 3 (web) exited 1 0:01 make"},
		{"signal", Snapshot{ID: 1, State: StateExited, Started: t0, Ended: t0.Add(75 * time.Second), Exit: &Exit{Signal: 15}, Command: "x"}, "job 1 killed by SIGTERM 1:15 x"},
		{"shell signal", Snapshot{ID: 1, State: StateExited, Started: t0, Ended: t0, Exit: &Exit{Code: 139}, Command: "x"}, "job 1 exited 139 (128+SIGSEGV) 0:00 x"},
		{"lingering", Snapshot{ID: 2, State: StateExited, Started: t0, Ended: t0.Add(2 * time.Second), Exit: &Exit{}, Remaining: 1, Command: "a &\nb"}, "job 2 exited 0, 1 still running 0:02 a &⏎b"},
		{"failed", Snapshot{ID: 4, State: StateFailed, Err: "bash not found", Command: "x"}, "job 4 failed: bash not found 0:00 x"},
		{"hostile command", Snapshot{ID: 5, State: StateRunning, Started: t0, Command: "echo \x1b]0;t\x07\u202e"}, "job 5 running 0:02 echo ␛]0;t␇"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.s.Header(t0.Add(2 * time.Second)); got != c.want {
				t.Errorf("Header = %q, want %q", got, c.want)
			}
		})
	}
}

func TestFormatElapsed(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0:00", 7 * time.Second: "0:07", 12*time.Minute + 3*time.Second: "12:03",
		time.Hour + 2*time.Minute + 3*time.Second: "1:02:03", -time.Second: "0:00",
	} {
		if got := FormatElapsed(d); got != want {
			t.Errorf("FormatElapsed(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestHeaderWith: an edge's tag after the label, the command cut or left
// out.
func TestHeaderWith(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := Snapshot{ID: 3, Name: "web", State: StateRunning, Started: t0, Command: "npm run dev"}
	now := t0.Add(75 * time.Second)
	for _, c := range []struct {
		tag  string
		max  int
		want string
	}{
		{"", MaxHeaderCommand, "job 3 (web) running 1:15 npm run dev"},
		{":5173", MaxHeaderCommand, "job 3 (web) :5173 running 1:15 npm run dev"},
		{"", 3, "job 3 (web) running 1:15 npm…"},
		{"", NoCommand, "job 3 (web) running 1:15"},
	} {
		if got := s.HeaderWith(now, c.tag, c.max); got != c.want {
			t.Errorf("HeaderWith(%q, %d) = %q, want %q", c.tag, c.max, got, c.want)
		}
	}
	if s.Header(now) != s.HeaderWith(now, "", MaxHeaderCommand) {
		t.Error("Header is not HeaderWith without a tag")
	}
}
