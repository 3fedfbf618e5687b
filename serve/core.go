package serve

import (
	"context"

	"github.com/jobdeck/jobdeck/model"
)

// Core is what the MCP server needs from the jobs core; *jobs.Table
// satisfies it. A selector (sel) is a job ID in decimal or a
// case-insensitive name. Errors wrap the jobs package's sentinels
// (model.ErrNotFound, model.ErrAmbiguous, model.ErrLimit, model.ErrBadSpec,
// model.ErrBadRequest, …) with messages that say what to do next; serve
// adds which tool to use for it.
type Core interface {
	// Start starts spec as a new job and returns its first report.
	Start(ctx context.Context, spec model.Spec) (model.Report, error)
	// Status returns the report of the job sel names, shaped and possibly
	// delayed by opts (see model.StatusOptions).
	Status(ctx context.Context, sel string, opts model.StatusOptions) (model.Report, error)
	// List returns a snapshot of every job, in ID order.
	List() []model.Snapshot
	// Resolve turns a selector into a job ID.
	Resolve(sel string) (model.JobID, error)
	// Dropped is how many finished jobs the core no longer keeps.
	Dropped() int
	// Kill stops the job sel names and its whole tree and returns the final
	// report once the tree is empty; a finished job's report comes back
	// without error.
	Kill(ctx context.Context, sel string, opts model.KillOptions) (model.Report, error)
}
