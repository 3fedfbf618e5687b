package model

// JobRead asks for lines of one job's ring, as one of several read at
// once (the console reads every pane of a frame in one call).
type JobRead struct {
	ID  JobID
	Req ReadRequest
}

// JobPage answers one JobRead: the page, or Err, the stable code
// (ErrorCode) of why the job could not be read (CodeError gives the
// error back): "not_found" for a job that is gone.
type JobPage struct {
	Page Page
	Err  string
}
