package model

// JobRead asks for lines of one job's ring, as one of several read at
// once (the console reads every pane of a frame in one call).
type JobRead struct {
	ID  JobID
	Req ReadRequest
	// Seen, when set, is how far the job had printed when the reader last
	// read this same window: a frame read (the jobs core's Frame) skips a
	// job whose Lines and Bytes are still these and answers Same. A
	// ReadMany ignores it.
	Seen *Progress
}

// Progress is how far a job has printed: its Snapshot's Lines (the seq of
// its last complete line) and Bytes (every byte read, a partial line's
// too).
type Progress struct {
	Lines uint64
	Bytes int64
}

// ProgressOf is s's Progress.
func ProgressOf(s Snapshot) Progress { return Progress{Lines: s.Lines, Bytes: s.Bytes} }

// JobPage answers one JobRead: the page, or Err, the stable code
// (ErrorCode) of why the job could not be read (CodeError gives the
// error back): "not_found" for a job that is gone. Same (a frame read
// only) says the job printed nothing since JobRead.Seen: nothing was
// read, Page is empty, and the reader keeps the window it has.
type JobPage struct {
	Page Page
	Err  string
	Same bool
}
