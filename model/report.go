package model

import (
	"regexp"
	"time"
)

// Defaults and bounds of a status request (DESIGN §5).
const (
	// DefaultStatusLines is how many lines a status shows when not told.
	DefaultStatusLines = 50
	// MaxStatusLines is the most lines one status returns: the ring's size.
	MaxStatusLines = 2000
	// MaxWait is the longest a status request may wait for a job.
	MaxWait = 10 * time.Minute
)

// StatusOptions shape a status request.
type StatusOptions struct {
	// Lines is how many lines to include: the newest ones, or with
	// HasSince the oldest ones after Since. Zero means 50; at most 2000.
	Lines int
	// Since, when HasSince is set, asks for lines with a seq greater than
	// Since only. It must not be beyond the job's last seq.
	Since    uint64
	HasSince bool
	// Wait is how long to wait, at most, for the job to end (its whole
	// tree: the leader and what it left running) or for a new line to match
	// Until; zero means answer at once. At most MaxWait.
	Wait time.Duration
	// Until, with Wait, ends the wait as soon as a line matches it
	// (matched against the line's plain text, and the open lines too): a
	// line printed after the request started, or with HasSince any line
	// after Since.
	Until *regexp.Regexp
}

// KillOptions shape a stop request.
type KillOptions struct {
	// Grace overrides the job's grace period (time between SIGTERM and
	// SIGKILL) when HasGrace is set; zero then means SIGKILL at once.
	Grace    time.Duration
	HasGrace bool
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

// Report is one job's state and lines, as the status line, the agent and
// the UI's status overlay get them (DESIGN §5).
type Report struct {
	Job  Snapshot
	Page Page
	// Wait is set when the request waited.
	Wait *WaitResult
	// Text is the report as plain text, with no escape bytes at all: the
	// header ("job 0 running 0:02 npm run dev"), notes, then one line per
	// output line, "> " for stdout and "! " for stderr.
	Text string
}
