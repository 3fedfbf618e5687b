package model

import "time"

// StatusOptions shape a status request.
type StatusOptions struct {
	// Lines is how many lines to include: the newest ones, or with
	// HasSince the oldest ones after Since. Zero means DefaultStatusLines;
	// at most MaxStatusLines.
	Lines int
	// Since, when HasSince is set, asks for lines with a seq greater than
	// Since only. It must not be beyond the job's last seq.
	Since    uint64
	HasSince bool
	// Wait is how long to wait, at most, for the job to end (its whole
	// tree: the leader and what it left running) or for a new line to match
	// Until; zero means answer at once. At most MaxWait.
	Wait time.Duration
	// Until, with Wait, is a regular expression (Go RE2 syntax, at most
	// MaxPatternBytes) that ends the wait as soon as a line matches it
	// (matched against the line's plain text, and the open lines too): a
	// line printed after the request started, or with HasSince any line
	// after Since. Empty means no pattern. The core compiles it.
	Until string
}

// KillOptions shape a stop request.
type KillOptions struct {
	// Grace overrides the job's grace period (time between SIGTERM and
	// SIGKILL): nil keeps the job's own, zero means SIGKILL at once; at
	// most MaxGrace.
	Grace *time.Duration
	// By is who asks for the stop ("console", an MCP client's name); it is
	// recorded in Stop.By.
	By string
}

// WaitReason says why a waiting status request returned.
type WaitReason uint8

// Why a wait ended.
const (
	// WaitMatched: a new line matched Until.
	WaitMatched WaitReason = iota + 1
	// WaitEnded: the job ended: its whole tree is gone (or it was already).
	WaitEnded
	// WaitTimeout: the wait time ran out.
	WaitTimeout
)

// String returns matched, ended or timeout.
func (r WaitReason) String() string {
	switch r {
	case WaitMatched:
		return "matched"
	case WaitEnded:
		return "ended"
	case WaitTimeout:
		return "timeout"
	}
	return "unknown"
}

// WaitResult tells how a wait went.
type WaitResult struct {
	Reason WaitReason
	// Waited is how long the request waited.
	Waited time.Duration
	// Match is the line that matched Until (WaitMatched only).
	Match *Line
}

// Report is one job's state and lines, as a status request, a start or a
// stop returns them: structure only. The screen and the agent each render
// it in their own words (ui/present, serve).
type Report struct {
	// Job is the job's snapshot when the report was made.
	Job Snapshot
	// Page holds the lines the request asked for (see ReadRequest).
	Page Page
	// Wait is set when the request waited.
	Wait *WaitResult
}
