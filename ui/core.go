package ui

import (
	"context"

	"github.com/jobdeck/jobdeck/model"
)

// Core is what the console needs from the jobs core (package jobs'
// *Table satisfies it through a one-method adapter for Subscribe). Every
// method must be safe for concurrent use; List, Snapshot, Read and Resolve
// must not block, since the console calls them while rendering.
type Core interface {
	// List returns a snapshot of every job, in ID order.
	List() []model.Snapshot
	// Snapshot returns one job's snapshot; false when the ID is unknown.
	Snapshot(id model.JobID) (model.Snapshot, bool)
	// Read returns lines of one job's ring without waiting.
	Read(id model.JobID, req model.ReadRequest) (model.Page, error)
	// Start starts a job and returns its first report (it may wait a
	// moment so that a command that dies at once is reported as dead).
	Start(ctx context.Context, spec model.Spec) (model.Report, error)
	// Kill stops the job sel names and everything it started; it returns
	// when the tree is empty.
	Kill(ctx context.Context, sel string, opts model.KillOptions) (model.Report, error)
	// Status returns the report of the job sel names.
	Status(ctx context.Context, sel string, opts model.StatusOptions) (model.Report, error)
	// Resolve turns a selector (an ID or a case-insensitive name) into an ID.
	Resolve(sel string) (model.JobID, error)
	// Subscribe returns a new subscription to every job's events; the
	// console closes it when it stops.
	Subscribe() Subscription
}

// Subscription delivers the core's events. State events must never be
// lost; output events may be coalesced. Delivery must never block the
// core.
type Subscription interface {
	// Wait blocks until events are waiting and takes them, oldest first.
	// It returns ctx's error when ctx ends first, and an error once the
	// subscription or the core is closed.
	Wait(ctx context.Context) ([]model.Event, error)
	// Close ends the subscription; a blocked Wait returns.
	Close()
}
