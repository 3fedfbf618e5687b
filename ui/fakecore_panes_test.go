package ui

import (
	"context"
	"fmt"
	"slices"

	"github.com/jobdeck/jobdeck/jobs/sanitize"

	"github.com/jobdeck/jobdeck/model"
)

// Resize records the resize; an unknown job is ErrNotFound.
func (c *fakeCore) Resize(_ context.Context, id model.JobID, size model.TermSize) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if int(id) < 0 || int(id) >= len(c.jobs) {
		return fmt.Errorf("resize job %d: %w", id, model.ErrNotFound)
	}
	c.resized = append(c.resized, resizeReq{id: id, size: size})
	return nil
}

// sizes returns the last size each job was resized to.
func (c *fakeCore) sizes() map[model.JobID]model.TermSize {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[model.JobID]model.TermSize{}
	for _, r := range c.resized {
		out[r.id] = r.size
	}
	return out
}

// ReadMany reads each ring as Read does (each read counts in reads).
func (c *fakeCore) ReadMany(ctx context.Context, reqs []model.JobRead) ([]model.JobPage, error) {
	c.mu.Lock()
	lost := c.lost
	c.readManys++
	c.mu.Unlock()
	if lost {
		return nil, errLost
	}
	pages := make([]model.JobPage, len(reqs))
	for i, r := range reqs {
		p, err := c.Read(ctx, r.ID, r.Req)
		pages[i] = model.JobPage{Page: p}
		if err != nil {
			pages[i].Err = model.ErrorCode(err)
		}
	}
	return pages, nil
}

// Frame lists the jobs as List does and reads each ring as ReadMany
// does, skipping a read whose Seen is the job's progress (Same); it
// counts in frames, not in lists or readManys.
func (c *fakeCore) Frame(ctx context.Context, reqs []model.JobRead) ([]model.Snapshot, []model.JobPage, error) {
	c.mu.Lock()
	lost := c.lost
	c.frames++
	var list []model.Snapshot
	for _, j := range c.jobs {
		if !j.removed {
			list = append(list, j.snapshot())
		}
	}
	c.mu.Unlock()
	if lost {
		return nil, nil, errLost
	}
	pages := make([]model.JobPage, len(reqs))
	for i, r := range reqs {
		j := slices.IndexFunc(list, func(s model.Snapshot) bool { return s.ID == r.ID })
		if r.Seen != nil && j >= 0 && model.ProgressOf(list[j]) == *r.Seen {
			pages[i].Same = true
			continue
		}
		p, err := c.Read(ctx, r.ID, r.Req)
		pages[i] = model.JobPage{Page: p}
		if err != nil {
			pages[i].Err = model.ErrorCode(err)
		}
	}
	return list, pages, nil
}

// grep answers a status request with Grep as the jobs core does: the
// newest n matches of the ring (after Since with HasSince; the oldest Head
// with Head), each with its Context lines, Read.Grep saying which and how
// many; a bad pattern is the core's InputError. afterGrep, when set, runs
// after each (a flood that moves on meanwhile).
func (c *fakeCore) grep(id model.JobID, snap model.Snapshot, opts model.StatusOptions, n int) (model.Report, error) {
	re, err := model.CompilePattern(model.FieldGrep, opts.Grep)
	if err != nil {
		return model.Report{}, err
	}
	c.mu.Lock()
	c.greps = append(c.greps, opts.Grep)
	after := c.afterGrep
	g := &model.GrepResult{}
	ring := c.jobs[id].ring
	var hits []int
	for i, l := range ring {
		if (!opts.HasSince || l.Seq > opts.Since) && re.MatchString(sanitize.Plain(l.Text)) {
			g.Matches++
			hits = append(hits, i)
		}
	}
	switch {
	case opts.Head > 0 && len(hits) > opts.Head:
		hits = hits[:opts.Head]
	case opts.Head == 0 && len(hits) > n:
		hits = hits[len(hits)-n:]
	}
	var lines []model.Line
	next := 0
	for _, i := range hits {
		g.Matched = append(g.Matched, ring[i].Seq)
		for j := max(i-opts.Context, next); j <= min(i+opts.Context, len(ring)-1); j++ {
			if !opts.HasSince || ring[j].Seq > opts.Since {
				lines = append(lines, ring[j])
			}
			next = j + 1
		}
	}
	page := model.Page{Lines: lines, Last: c.jobs[id].last}
	c.mu.Unlock()
	if after != nil {
		after()
	}
	return model.Report{Job: snap, Page: page, Read: model.ReadInfo{Grep: g}}, nil
}
