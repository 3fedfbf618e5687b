package model

import "time"

// Stream says which output a line came from.
type Stream uint8

// The two output streams of a job.
const (
	// StreamOut is stdout: a pty, or a pipe for jobs started without one.
	StreamOut Stream = iota
	// StreamErr is stderr: a pty of its own (a pipe for jobs started
	// without one), read apart from stdout, so its lines can be marked.
	StreamErr
)

// String returns "out" or "err".
func (s Stream) String() string {
	if s == StreamErr {
		return "err"
	}
	return "out"
}

// Marker returns the report prefix of the stream: "> " for out, "! " for
// err.
func (s Stream) Marker() string {
	if s == StreamErr {
		return "! "
	}
	return "> "
}

// Line is one line of a job's output as the ring keeps it.
type Line struct {
	// Seq numbers the line within its job: 1, 2, 3 … never reused. An
	// open (partial) line has none yet (0): both streams may have one.
	Seq uint64
	// Stream is where the line came from.
	Stream Stream
	// Time is when the line was completed (for the open line: when its
	// last bytes arrived).
	Time time.Time
	// Text is the line's raw bytes without its newline, after carriage
	// return rewriting ("a\rb" keeps "b", "\r\n" ends a line). It may hold
	// escape sequences and invalid UTF-8: every consumer sanitises it for
	// its own use. It never ends inside a UTF-8 sequence that may still be
	// completed. The slice belongs to the caller.
	Text []byte
	// Dropped counts bytes cut from the end of this line: raw bytes by the
	// line cap, and in a grep read, bytes of plain text after the window
	// kept around a match that the line budget would have cut out
	// (StatusOptions.LineBytes).
	Dropped int64
	// Cut counts bytes of plain text a reader's line budget cut out of the
	// middle of Text (StatusOptions.LineBytes: Text is then plain text);
	// CutAt is where in Text the cut is:
	// Text[:CutAt] is the line's head, Text[CutAt:] its tail.
	Cut   int64
	CutAt int
	// Partial marks the open line: no newline yet, updated in place.
	Partial bool
}

// ReadRequest asks the jobs core for lines of one job.
type ReadRequest struct {
	// After is the cursor: only lines with a seq greater than After are
	// returned. Zero means from the start of what the ring holds.
	After uint64
	// Limit caps the number of complete lines returned; zero or less
	// means all that match (at most the ring's 2000).
	Limit int
	// Tail returns the newest Limit lines after the cursor instead of the
	// oldest ones.
	Tail bool
	// NoPartial leaves out the open lines.
	NoPartial bool
}

// Page is the answer to a ReadRequest.
type Page struct {
	// Lines are the complete lines returned, oldest first.
	Lines []Line
	// Partial holds the open (not yet terminated) line of each stream
	// that has one, stdout first. They are not counted by the cursor.
	Partial []Line
	// Dropped counts lines after the cursor that the ring evicted before
	// they could be read: readers show "[… N lines dropped]".
	Dropped uint64
	// Skipped counts lines after the cursor that a Tail request left out
	// (still in the ring, older than the ones returned).
	Skipped uint64
	// More counts lines after the last returned one that did not fit the
	// limit (non-Tail requests); read again with After = Next.
	More uint64
	// Next is the cursor to pass as After to read on from here: the seq of
	// the last line returned, or the request's After when none was.
	Next uint64
	// Last is the seq of the newest complete line the job printed.
	Last uint64
}
