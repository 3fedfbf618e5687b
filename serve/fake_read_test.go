package serve

import (
	"context"
	"regexp"

	"github.com/jobdeck/jobdeck/model"
)

// The fake core's reads and its wait on any job.

// reportLocked selects lines as the real core does, simply: the range
// (after Since), grep matches with context, the newest Lines or oldest
// Head of them, the newest that fit MaxBytes, each cut to LineBytes.
func (f *fakeCore) reportLocked(j *fakeJob, opts model.StatusOptions, wait *model.WaitResult) model.Report {
	var rng []model.Line
	for _, l := range j.lines {
		if !opts.HasSince || l.Seq > opts.Since {
			rng = append(rng, l)
		}
	}
	page := model.Page{Last: j.snap.Lines, Next: opts.Since}
	info := model.ReadInfo{From: opts.Since, Head: opts.Head > 0, Lo: 1}
	if len(rng) > 0 {
		info.Lo, info.Hi = rng[0].Seq, rng[len(rng)-1].Seq
	}
	units := [][]model.Line{}
	var matched []uint64
	for i, l := range rng {
		if opts.Grep == "" {
			units = append(units, []model.Line{l})
		} else if regexp.MustCompile(opts.Grep).Match(l.Text) {
			units = append(units, rng[max(0, i-opts.Context):min(len(rng), i+opts.Context+1)])
			matched = append(matched, l.Seq)
		}
	}
	if opts.Grep != "" {
		info.Grep = &model.GrepResult{Matches: len(units)}
	}
	n := opts.Lines
	if n <= 0 {
		n = model.DefaultStatusLines
	}
	if opts.Head > 0 {
		n = min(opts.Head, len(units))
		page.More = uint64(len(units) - n)
		units, matched = units[:n], matched[:min(n, len(matched))]
	} else if len(units) > n {
		page.Skipped = uint64(len(units) - n)
		units = units[len(units)-n:]
		if matched != nil {
			matched = matched[len(matched)-n:]
		}
	}
	used, keep := 0, 0
	for i := len(units) - 1; i >= 0; i-- {
		size := 0
		for _, l := range units[i] {
			size += min(len(l.Text), max(opts.LineBytes, len(l.Text)*boolInt(opts.LineBytes == 0)))
		}
		if opts.MaxBytes > 0 && keep > 0 && used+size > opts.MaxBytes {
			break
		}
		used += size
		keep++
	}
	page.Skipped += uint64(len(units) - keep)
	info.ByBytes = uint64(len(units) - keep)
	units = units[len(units)-keep:]
	if matched != nil {
		matched = matched[len(matched)-keep:]
	}
	seen := map[uint64]bool{}
	for _, u := range units {
		for _, l := range u {
			if !seen[l.Seq] {
				seen[l.Seq] = true
				page.Lines = append(page.Lines, cutLine(l, opts.LineBytes))
			}
		}
	}
	if info.Grep != nil {
		info.Grep.Matched = matched
	}
	switch {
	case page.More > 0 && len(page.Lines) > 0:
		page.Next = page.Lines[len(page.Lines)-1].Seq
	case len(rng) > 0:
		page.Next = rng[len(rng)-1].Seq
	}
	// Line texts stay raw, as in the ring: serve must clean them.
	return model.Report{Job: j.snap, Page: page, Wait: wait, Read: info}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// cutLine cuts l in the middle to n bytes (0: whole), as the core does.
func cutLine(l model.Line, n int) model.Line {
	if n <= 0 || len(l.Text) <= n {
		return l
	}
	head, tail := l.Text[:n/2], l.Text[len(l.Text)-(n-n/2):]
	l.Cut, l.CutAt = int64(len(l.Text)-n), len(head)
	l.Text = append(append([]byte{}, head...), tail...)
	return l
}

// WaitAny plays the scripts of the live jobs, in ID order, and ends on the
// first that ends; with until, it first looks at every job's lines.
func (f *fakeCore) WaitAny(ctx context.Context, opts model.AnyOptions) (model.WaitResult, []model.Snapshot, error) {
	if err := model.CheckWait(opts.Wait); err != nil {
		return model.WaitResult{}, nil, err
	}
	f.mu.Lock()
	var res *model.WaitResult
	for _, j := range f.jobs {
		if res != nil {
			break
		}
		if opts.Until != "" || !finished(j.snap) {
			so := model.StatusOptions{Wait: opts.Wait, Until: opts.Until, HasAfter: true, After: opts.After[j.snap.ID]}
			if w := f.playLocked(j, so); w.Reason == model.WaitMatched || (opts.Until == "" && w.Reason == model.WaitEnded) {
				res = w
			}
		}
	}
	f.mu.Unlock()
	if res == nil {
		res = &model.WaitResult{Reason: model.WaitTimeout, Waited: opts.Wait, Job: -1}
	}
	return *res, f.List(), nil
}
