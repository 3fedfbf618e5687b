package model

import "time"

// RestartOptions shape a restart: stop a job's tree as a kill does (when
// it is live), then start the same spec again as a new job.
type RestartOptions struct {
	// Grace overrides the job's grace for the stop (time between SIGTERM
	// and SIGKILL): nil keeps the job's own, zero means SIGKILL at once;
	// at most MaxGrace.
	Grace *time.Duration
	// By is who asks for the restart ("console", an MCP client's name): it
	// is recorded as the stop's Stop.By and as the new run's Owner. Empty
	// keeps the old run's owner.
	By string
	// NoWait makes the restart return as soon as the new run runs,
	// without the start's short wait (see Spec.NoWait).
	NoWait bool
}
