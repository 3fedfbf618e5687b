package model

import "time"

// StatusOptions shape a status request: which lines the report holds
// (a range, a grep filter, the oldest or newest of them, a byte budget)
// and whether it waits first.
type StatusOptions struct {
	// Lines is how many lines to include: the newest ones of the range
	// (the ring, or with HasSince the lines after Since); with Grep, the
	// newest Lines matches, each with its Context lines. Zero means
	// DefaultStatusLines unless Head is given; at most MaxStatusLines.
	Lines int
	// Head, when not zero, asks for the oldest Head lines of the range
	// (matches, with Grep) instead of the newest: 1 to MaxStatusLines,
	// not together with Lines.
	Head int
	// Since, when HasSince is set, starts the range after that seq: only
	// lines with a greater seq. It must not be beyond the job's last seq.
	Since    uint64
	HasSince bool
	// Grep, when not empty, is a regular expression (Go RE2 syntax, at
	// most MaxPatternBytes; refused before compiling when longer) that
	// selects the lines of the range whose plain text matches.
	// Report.Grep counts them all and says which lines shown matched.
	Grep string
	// Context is how many lines before and after each Grep match are
	// shown with it: 0 to MaxContext. Only with Grep.
	Context int
	// MaxBytes, when not zero, bounds the bytes of line text (counted as
	// plain text, sanitize.Plain, after LineBytes cuts) in the report: lines that do not fit are left
	// out oldest first and counted in Page.Skipped; the newest line always
	// fits (it is cut to MaxBytes). With Head, the other way round: the
	// newest are left out, counted in Page.More, Page.Next is the last
	// one shown, and the oldest line always fits. Zero means no bound.
	MaxBytes int
	// LineBytes, when not zero, bounds one line's plain text: a longer
	// line is cut in the middle, keeping its head and its tail (Line.Cut
	// and Line.CutAt say where and how much); a line so cut holds its
	// plain text, its escape sequences dropped. Zero means no cut.
	LineBytes int
	// Wait is how long to wait, at most, for the job to end (its whole
	// tree: the leader and what it left running) or for a line to match
	// Until; zero means answer at once. At most MaxWait.
	Wait time.Duration
	// Until, with Wait, is a regular expression (Go RE2 syntax, at most
	// MaxPatternBytes) that ends the wait as soon as a line matches it
	// (matched against the line's plain text, and the open lines too).
	// Which lines can match is set by After, Since or the time of the
	// request, in that order (see After). Where several lines match, the
	// newest is the match. Empty means no pattern. The core compiles it.
	Until string
	// After, when HasAfter is set, is the cursor of Until: only lines with
	// a seq greater than After can match (zero: every line the ring
	// holds), whatever the lines shown (Since). Without HasAfter, Until
	// matches the lines after Since when HasSince is set, and otherwise the
	// lines printed after the request started.
	After    uint64
	HasAfter bool
}

// ReadInfo says how a report's lines were picked out of the job's ring:
// where the range started, whether its oldest or newest lines were asked
// for, and what a grep found. Edges use it to say what was left out and
// how to read it.
type ReadInfo struct {
	// From is the cursor the range started after: Since, or the seq before
	// the oldest line held (lines before it were dropped).
	From uint64
	// Head reports that the oldest lines of the range were asked for
	// (StatusOptions.Head): Page.More then counts the units after the last
	// one shown. Otherwise the newest were, and Page.Skipped counts the
	// units older than the first one shown.
	Head bool
	// Lo and Hi are the seqs of the oldest and newest lines of the range
	// the ring held (a grep searched them all); Lo > Hi when it held none.
	Lo, Hi uint64
	// ByBytes counts the units of Page.Skipped that the byte budget
	// (StatusOptions.MaxBytes) left out rather than the line count.
	ByBytes uint64
	// Grep is set for a grep read: the units of Page.Skipped and Page.More
	// are matches (each with its context), not lines.
	Grep *GrepResult
}

// GrepResult is what a grep read found.
type GrepResult struct {
	// Matches counts the lines of the range whose plain text matched,
	// shown or not (open lines included).
	Matches int
	// Matched lists the seqs of the lines in Page.Lines that matched, in
	// ascending order; the other lines of Page.Lines are context. An open
	// line that matched is in Page.Partial (it has no seq).
	Matched []uint64
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
	// Read shapes the lines of the final report like a status request's
	// (Lines, Head, Since, Grep, Context, MaxBytes, LineBytes; Wait, Until
	// and After are ignored). The zero value gives the newest
	// DefaultStatusLines lines.
	Read StatusOptions
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
	// WaitIdle: a wait on every job (WaitAny) found nothing that could end
	// it: no job is live, and none can match any more.
	WaitIdle
	// WaitCancelled: the request ended first (its context: the client
	// cancelled it, or the server is stopping; the edge knows which).
	WaitCancelled
)

// String returns matched, ended, timeout, idle or cancelled.
func (r WaitReason) String() string {
	switch r {
	case WaitMatched:
		return "matched"
	case WaitEnded:
		return "ended"
	case WaitTimeout:
		return "timeout"
	case WaitIdle:
		return "idle"
	case WaitCancelled:
		return "cancelled"
	}
	return "unknown"
}

// WaitResult tells how a wait went.
type WaitResult struct {
	Reason WaitReason
	// Waited is how long the request waited.
	Waited time.Duration
	// Match is the line that matched Until (WaitMatched only): a complete
	// line (Seq set), or an open one (Partial, Seq 0). Its Time says when
	// it was printed.
	Match *Line
	// Job is the job the wait ended on: the one whose line matched or
	// that ended (for a wait on one job, that job).
	Job JobID
}

// AnyOptions shape a wait on every job at once (the core's WaitAny).
type AnyOptions struct {
	// Wait is how long to wait at most: more than zero, at most MaxWait.
	Wait time.Duration
	// Until, when not empty, is a regular expression (as
	// StatusOptions.Until): the wait ends when a line of any job matches
	// (finished jobs' lines included). Without it, the wait ends when a
	// job that is live ends.
	Until string
	// After holds the Until cursor of each job (as StatusOptions.After);
	// a job not in it can match from the oldest line its ring holds.
	After map[JobID]uint64
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
	// Read says how Page's lines were selected.
	Read ReadInfo
	// StopJoined is set in a stop's report when the job was already being
	// stopped (or stopped) when this stop was asked for: Job.Stop says who
	// asked first, and when.
	StopJoined bool
}
