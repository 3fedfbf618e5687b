package ui

import (
	"context"
	"fmt"

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

// grep answers a status request with Grep as the jobs core does: the
// newest n lines of the ring whose plain text matches, Read.Grep saying
// which and how many; a bad pattern is the core's InputError.
func (c *fakeCore) grep(id model.JobID, snap model.Snapshot, pattern string, n int) (model.Report, error) {
	re, err := model.CompilePattern(model.FieldGrep, pattern)
	if err != nil {
		return model.Report{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.greps = append(c.greps, pattern)
	g := &model.GrepResult{}
	var lines []model.Line
	for _, l := range c.jobs[id].ring {
		if re.MatchString(sanitize.Plain(l.Text)) {
			g.Matches++
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for _, l := range lines {
		g.Matched = append(g.Matched, l.Seq)
	}
	return model.Report{Job: snap, Page: model.Page{Lines: lines}, Read: model.ReadInfo{Grep: g}}, nil
}
