package jobs

import "github.com/jobdeck/jobdeck/model"

// report builds the job's report: its snapshot and the lines opts asks
// for (the newest opts.Lines, or with opts.HasSince the oldest ones after
// opts.Since). The words are the edges' to choose.
func (j *job) report(opts model.StatusOptions, w *model.WaitResult) model.Report {
	if opts.Lines <= 0 {
		opts.Lines = model.DefaultStatusLines
	}
	req := model.ReadRequest{Limit: opts.Lines, Tail: true}
	if opts.HasSince {
		req = model.ReadRequest{After: opts.Since, Limit: opts.Lines}
	}
	j.t.checkOutput(j) // the snapshot names any port conflict the lines show
	return model.Report{Job: j.snapshot(), Page: j.ring.read(req), Wait: w}
}
