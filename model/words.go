package model

import (
	"fmt"
	"strconv"
	"time"
)

// The words both edges (the agent's results and the console) give the
// same facts, beside Header: one renderer per fact (ARCHITECTURE.md §3).
// The sentences that quote what a job or a user named (and so need
// sanitising) are in package words.

// Count returns "1 process", "3 processes".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// ByteSize formats n bytes for people: "812 bytes", "34.2 KiB",
// "47.6 MiB", "1.2 GiB".
func ByteSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}

// Describe words the stop as of now: "stopping: SIGTERM to 1 process 2s
// ago; SIGKILL follows after the 5s grace", "stopped in 10ms: SIGTERM to
// 2 processes; no SIGKILL needed", with who cut the grace short
// (Hastened) and SIGKILL "at once" only when no SIGTERM was sent. by is
// put after the first word as it is (AskedBy; the edge decides whom to
// name).
func (st *Stop) Describe(now time.Time, by string) string {
	term := "SIGTERM to " + Count(st.TermSent, "process", "processes")
	if st.Done.IsZero() {
		ago := now.Sub(st.At).Round(100 * time.Millisecond)
		if st.Grace == 0 {
			return fmt.Sprintf("stopping%s: SIGKILL at once, %v ago", by, ago)
		}
		return fmt.Sprintf("stopping%s: %s %v ago; SIGKILL follows after the %v grace", by, term, ago, st.Grace)
	}
	took := st.Done.Sub(st.At).Round(10 * time.Millisecond)
	if st.Hastened != "" {
		term += fmt.Sprintf("; %s cut the grace to %v", OneLine(st.Hastened, 0), st.Grace)
	}
	switch {
	case st.KillSent > 0 && st.Grace == 0 && st.TermSent == 0:
		return fmt.Sprintf("stopped in %v%s: SIGKILL to %s at once", took, by, Count(st.KillSent, "process", "processes"))
	case st.KillSent > 0:
		return fmt.Sprintf("stopped in %v%s: %s; SIGKILL was needed for %d after the %v grace", took, by, term, st.KillSent, st.Grace)
	}
	return fmt.Sprintf("stopped in %v%s: %s; no SIGKILL needed", took, by, term)
}

// AskedBy is the clause that names who asked for a stop, " (asked by
// codex)", with who on one line; "" when who is empty. An edge passes
// who already made plain.
func AskedBy(who string) string {
	if who == "" {
		return ""
	}
	return " (asked by " + OneLine(who, 0) + ")"
}
