package ui

import (
	"slices"

	"github.com/jobdeck/jobdeck/model"
)

// runsShown returns jobs (in ID order) with each restart chain (a job, its
// restart, the restart's restart …: Snapshot.RestartOf) reduced to one
// run, standing where the chain's first run stands: the newest run, or the
// selected one when it is an older run of the chain. So a restarted job's
// pane keeps its place and shows the new run, and its old runs stay in the
// list, where selecting one shows it in that pane. Without restarts it
// returns jobs itself.
func runsShown(jobs []model.Snapshot, current model.JobID, hasCurrent bool) []model.Snapshot {
	if !slices.ContainsFunc(jobs, func(s model.Snapshot) bool { return s.RestartOf != nil }) {
		return jobs
	}
	root := make(map[model.JobID]model.JobID, len(jobs))
	pick := map[model.JobID]int{} // chain root → index in jobs of the run shown
	var roots []model.JobID
	for i, s := range jobs {
		r := s.ID
		if s.RestartOf != nil {
			if pr, ok := root[*s.RestartOf]; ok {
				r = pr
			}
		}
		root[s.ID] = r
		if _, seen := pick[r]; !seen {
			roots = append(roots, r)
		}
		if cur, seen := pick[r]; !seen || !(hasCurrent && jobs[cur].ID == current) {
			pick[r] = i // the newest so far, unless the selected run is already picked
		}
	}
	out := make([]model.Snapshot, 0, len(roots))
	for _, r := range roots {
		out = append(out, jobs[pick[r]])
	}
	return out
}
