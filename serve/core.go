package serve

import (
	"context"

	"github.com/jobdeck/jobdeck/model"
)

// Core is what the MCP server needs from the jobs core; *jobs.Table
// satisfies it. The server resolves a selector once (Resolve) and then
// works by job ID, so that a name cannot come to mean another job between
// two calls. Errors wrap model's sentinels (model.ErrNotFound,
// model.ErrAmbiguous, model.ErrLimit, model.ErrBadSpec, model.ErrBadRequest,
// …; bad inputs as *model.InputError) with messages that name no surface;
// serve adds which tool or argument to use.
type Core interface {
	// Start starts spec as a new job and returns its first report; a job
	// whose shell could not start at all comes back in StateFailed.
	Start(ctx context.Context, spec model.Spec) (model.Report, error)
	// Resolve turns a selector (an ID in decimal, or a case-insensitive
	// name) into a job ID.
	Resolve(sel string) (model.JobID, error)
	// Status returns the report of job id, shaped and possibly delayed by
	// opts (see model.StatusOptions).
	Status(ctx context.Context, id model.JobID, opts model.StatusOptions) (model.Report, error)
	// Kill stops job id and its whole tree and returns the final report
	// once the tree is empty; a finished job's report comes back without
	// error.
	Kill(ctx context.Context, id model.JobID, opts model.KillOptions) (model.Report, error)
	// Restart stops job id's tree as Kill does (when it is live), then
	// starts the same spec again as a new job and returns the new job's
	// report; a job being stopped is refused (model.ErrRunning).
	Restart(ctx context.Context, id model.JobID, opts model.RestartOptions) (model.Report, error)
	// WaitAny waits for any job to end or, with opts.Until, for a line of
	// any job to match, and returns how the wait ended (its Job names the
	// job) and every job's snapshot (see model.AnyOptions).
	WaitAny(ctx context.Context, opts model.AnyOptions) (model.WaitResult, []model.Snapshot, error)
	// List returns a snapshot of every job, in ID order.
	List() []model.Snapshot
	// Dropped is how many finished jobs the core no longer keeps.
	Dropped() int
}
