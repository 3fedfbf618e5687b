package ui

import (
	"context"
	"errors"
	"slices"

	"github.com/jobdeck/jobdeck/model"
)

// guessReads is the reads of a Core.Frame call for the panes guess planned
// (from the list before this one), and the pane each is for: a pane whose
// window prev holds for the same read says how far its job had printed
// then (JobRead.Seen), so that a job that printed nothing since is not
// read again.
func guessReads(guess []paneReq, prev map[model.JobID]paneWindow) ([]model.JobRead, []paneReq) {
	reads := make([]model.JobRead, 0, len(guess))
	reqs := make([]paneReq, 0, len(guess))
	for _, r := range guess {
		if r.rows <= 0 {
			continue
		}
		read := model.JobRead{ID: r.id, Req: windowRead(r)}
		if w, ok := prev[r.id]; ok && w.key.req == r {
			read.Seen = &model.Progress{Lines: w.key.lines, Bytes: w.key.bytes}
		}
		reads, reqs = append(reads, read), append(reqs, r)
	}
	return reads, reqs
}

// readWindows fills windows with the window of each pane of plan: the
// previous one when its job printed nothing since it was read for the
// same pane (prev), else the one got holds for that pane (read with the
// list), else read afresh, all of those in one ReadMany. A job that
// cannot be read (it went since the list) leaves its pane empty until the
// next fetch; the error is a lost link's.
func readWindows(ctx context.Context, core Core, jobs []model.Snapshot, plan []paneReq, prev map[model.JobID]paneWindow, got map[paneReq]model.JobPage, windows map[model.JobID]paneWindow) error {
	var reads []model.JobRead
	var readKeys, keys []windowKey
	var pages []model.JobPage
	for _, r := range plan {
		i := slices.IndexFunc(jobs, func(s model.Snapshot) bool { return s.ID == r.id })
		if i < 0 || r.rows <= 0 {
			windows[r.id] = paneWindow{}
			continue
		}
		key := keyOf(r, jobs[i])
		if w, ok := prev[r.id]; ok && w.key == key {
			windows[r.id] = w
			continue
		}
		if p, ok := got[r]; ok && !p.Same {
			keys, pages = append(keys, key), append(pages, p)
			continue
		}
		reads = append(reads, model.JobRead{ID: r.id, Req: windowRead(r)})
		readKeys = append(readKeys, key)
	}
	if len(reads) > 0 {
		read, err := core.ReadMany(ctx, reads)
		if errors.Is(err, model.ErrUnavailable) {
			return err
		}
		for i, k := range readKeys {
			p := model.JobPage{Err: model.CodeInternal} // the call failed: an empty pane
			if err == nil && i < len(read) {
				p = read[i]
			}
			keys, pages = append(keys, k), append(pages, p)
		}
	}
	for i, k := range keys {
		var w paneWindow
		if pages[i].Err == "" {
			w = windowOf(k.req, pages[i].Page)
			w.key = k
			p, had := prev[k.req.id]
			w = held(w, k, pages[i].Page, p, had)
		}
		windows[k.req.id] = w
	}
	return nil
}
