package model

import "testing"

// TestSmallWords: counts and byte sizes as both edges word them.
func TestSmallWords(t *testing.T) {
	if Count(1, "job", "jobs") != "1 job" || Count(2, "job", "jobs") != "2 jobs" || Count(0, "job", "jobs") != "0 jobs" {
		t.Error("Count")
	}
	for n, want := range map[int64]string{0: "0 bytes", 812: "812 bytes", 1023: "1023 bytes", 1 << 10: "1.0 KiB", 35021: "34.2 KiB", 50_000_000: "47.7 MiB", 3 << 30: "3.0 GiB"} {
		if got := ByteSize(n); got != want {
			t.Errorf("ByteSize(%d) = %q, want %q", n, got, want)
		}
	}
	if AskedBy("") != "" || AskedBy("codex\nx") != " (asked by codex⏎x)" {
		t.Errorf("AskedBy = %q", AskedBy("codex\nx"))
	}
}
