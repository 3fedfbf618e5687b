package jobs

import (
	"regexp"
	"slices"
	"time"

	"github.com/jobdeck/jobdeck/jobs/sanitize"
	"github.com/jobdeck/jobdeck/model"
)

// readSpec is a checked status request's read: options with Lines or Head
// set, and the compiled grep pattern.
type readSpec struct {
	opts model.StatusOptions
	grep *regexp.Regexp
}

// report builds the job's report: its snapshot and the lines spec selects.
// The words are the edges' to choose.
func (j *job) report(spec readSpec, w *model.WaitResult) model.Report {
	j.t.checkOutput(j) // the snapshot names any port conflict the lines show
	page, info := j.ring.selectLines(spec)
	return model.Report{Job: j.snapshot(), Page: page, Wait: w, Read: info}
}

// tailSpec is the read of a report that asked for nothing: the newest
// DefaultStatusLines lines.
func tailSpec() readSpec {
	return readSpec{opts: model.StatusOptions{Lines: model.DefaultStatusLines}}
}

// unit is what a read counts: a line, or with grep a match and its
// context lines (lo to hi).
type unit struct{ seq, lo, hi uint64 }

// selectLines answers a read: the range (lines after Since, or every line
// held), narrowed by grep to matches with their context, the newest Lines
// or oldest Head units of it, and of those the newest that fit MaxBytes
// (with Head, the oldest: the rest counts as Page.More, after Page.Next).
// Texts are copies, cut to LineBytes.
func (r *ring) selectLines(spec readSpec) (model.Page, model.ReadInfo) {
	o := spec.opts
	var matches []uint64
	var to uint64
	if spec.grep != nil {
		matches, to = r.grepSeqs(&matcher{re: spec.grep}, o.Since)
	}
	m := &matcher{re: spec.grep}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.materialize()
	first, last := r.heldLocked()
	if spec.grep == nil {
		to = last
	}
	p := model.Page{Last: r.last, Next: o.Since}
	info := model.ReadInfo{From: o.Since, Head: o.Head > 0}
	if first > o.Since+1 {
		p.Dropped = first - o.Since - 1
		if !o.HasSince {
			info.From = first - 1
		}
	}
	lo, hi := max(o.Since+1, first), min(to, last)
	info.Lo, info.Hi = lo, hi
	count := o.Lines
	if info.Head {
		count = o.Head
	}
	if spec.grep == nil && hi >= lo && hi-lo+1 > uint64(count) {
		// Lines are units: count them without making the ones left out.
		left := hi - lo + 1 - uint64(count)
		if info.Head {
			p.More, hi = left, lo+uint64(count)-1
		} else {
			p.Skipped, lo = left, hi-uint64(count)+1
		}
	}
	units := r.units(lo, hi, spec.grep != nil, matches, o.Context)
	pick := units
	if len(pick) > count {
		if info.Head {
			p.More = uint64(len(pick) - count)
			pick = pick[:count]
		} else {
			p.Skipped = uint64(len(pick) - count)
			pick = pick[len(pick)-count:]
		}
	}
	budget := newBudget(o.MaxBytes, o.LineBytes)
	pick, lines, partial, openMatches := r.fitBudget(pick, budget, m, spec.grep != nil, &p, &info)
	var around map[uint64]bool // grep matches: cut around the match
	if spec.grep != nil {
		around = map[uint64]bool{}
		for _, u := range pick {
			around[u.seq] = true
		}
	}
	p.Lines = r.copyLines(lines, budget.line, spec.grep, around)
	p.Partial = partial
	switch {
	case p.More > 0 && len(pick) > 0:
		p.Next = pick[len(pick)-1].seq
	case hi >= lo:
		p.Next = hi
	}
	if spec.grep != nil {
		g := &model.GrepResult{Matches: len(units) + openMatches}
		for _, u := range pick {
			g.Matched = append(g.Matched, u.seq)
		}
		info.Grep = g
	}
	return p, info
}

// fitBudget keeps the units of pick that fit budget: with a head read the
// oldest (the rest counts as p.More), else the newest (the rest counts as
// p.Skipped and info.ByBytes). It returns the kept units, their line seqs,
// and the unfinished lines with the matches among them when the read
// reaches the newest output. r.mu must be held.
func (r *ring) fitBudget(pick []unit, budget *budget, m *matcher, grep bool, p *model.Page, info *model.ReadInfo) ([]unit, []uint64, []model.Line, int) {
	var partial []model.Line
	var lines []uint64
	openMatches := 0
	var keep int
	if info.Head {
		// The oldest units that fit; the budget leaves out the newest
		// (ARCHITECTURE.md §1: a seq is the cursor a head read pages on from).
		keep, lines = r.fitUnits(pick, budget, true)
		p.More += uint64(len(pick) - keep)
		if p.More == 0 {
			partial, openMatches = r.openLines(m, grep, budget)
		}
		return pick[:keep], lines, partial, openMatches
	}
	partial, openMatches = r.openLines(m, grep, budget)
	keep, lines = r.fitUnits(pick, budget, false)
	p.Skipped += uint64(len(pick) - keep)
	info.ByBytes = uint64(len(pick) - keep)
	return pick[len(pick)-keep:], lines, partial, openMatches
}

// units are the read's units in [lo, hi]: every line, or for a grep read
// each match with context lines either side. r.mu must be held.
func (r *ring) units(lo, hi uint64, grep bool, matches []uint64, context int) []unit {
	if hi < lo {
		return nil
	}
	var us []unit
	if !grep {
		us = make([]unit, 0, hi-lo+1)
		for s := lo; s <= hi; s++ {
			us = append(us, unit{s, s, s})
		}
		return us
	}
	c := uint64(context)
	for _, s := range matches {
		if s < lo || s > hi {
			continue
		}
		us = append(us, unit{seq: s, lo: max(lo, s-min(s, c)), hi: min(hi, s+c)})
	}
	return us
}

// budget tracks the bytes a read may still return, counted in plain text
// (sanitize.Plain), the text a reader of a budgeted read shows.
type budget struct {
	left, line int    // left < 0: no bound; line: per-line cut (0: none)
	spent      bool   // something was taken
	plain      []byte // scratch for size
}

func newBudget(maxBytes, lineBytes int) *budget {
	b := &budget{left: -1, line: lineBytes}
	if maxBytes > 0 {
		b.left = maxBytes
		if b.line == 0 || b.line > maxBytes {
			b.line = maxBytes
		}
	}
	return b
}

// size is how many bytes of plain text a line of raw text counts for
// (before the per-line cut). Without any bound it is not measured.
func (b *budget) size(text []byte) int {
	if b.left < 0 && b.line == 0 {
		return len(text)
	}
	b.plain = sanitize.AppendPlain(b.plain[:0], text)
	return len(b.plain)
}

// take spends n bytes (cut to the per-line budget) if they fit, or if
// nothing was taken yet (the newest line always fits), and reports
// whether it did.
func (b *budget) take(n int) bool {
	n = cutSize(n, b.line)
	if b.left >= 0 {
		if n > b.left && b.spent {
			return false
		}
		b.left = max(b.left-n, 0)
	}
	b.spent = true
	return true
}

// fitUnits keeps the newest units of pick whose lines fit the budget, or
// with oldest the oldest ones (the first unit so taken always: its match
// line, and the context lines nearest to it that fit), and returns how
// many it kept and their lines' seqs, oldest first. r.mu must be held.
func (r *ring) fitUnits(pick []unit, b *budget, oldest bool) (int, []uint64) {
	taken := map[uint64]bool{}
	size := func(s uint64) int {
		e, _ := r.entryLocked(s)
		return b.size(r.textLocked(e))
	}
	keep := 0
	for k := range pick {
		i := len(pick) - 1 - k
		if oldest {
			i = k
		}
		u := pick[i]
		if keep == 0 {
			// The newest unit: its line first, then context by distance.
			if !b.take(size(u.seq)) {
				break
			}
			taken[u.seq] = true
			for d := uint64(1); d <= u.hi-u.seq || d <= u.seq-u.lo; d++ {
				if s := u.seq + d; s <= u.hi && b.take(size(s)) {
					taken[s] = true
				}
				if s := u.seq - d; d <= u.seq-u.lo && b.take(size(s)) {
					taken[s] = true
				}
			}
			keep++
			continue
		}
		n := 0
		for s := u.lo; s <= u.hi; s++ {
			if !taken[s] {
				n += cutSize(size(s), b.line)
			}
		}
		if !b.take(n) {
			break
		}
		for s := u.lo; s <= u.hi; s++ {
			taken[s] = true
		}
		keep++
	}
	seqs := make([]uint64, 0, len(taken))
	for s := range taken {
		seqs = append(seqs, s)
	}
	slices.Sort(seqs)
	return keep, seqs
}

// copyLines copies the held lines seqs, oldest first, cut to lineBytes;
// a line in around is cut around its first match of re instead, so that
// the match stays in view. r.mu must be held.
func (r *ring) copyLines(seqs []uint64, lineBytes int, re *regexp.Regexp, around map[uint64]bool) []model.Line {
	var out []model.Line
	for _, s := range seqs {
		e, ok := r.entryLocked(s)
		if !ok {
			continue
		}
		l := lineOf(e)
		if around[s] {
			cutAround(&l, r.textLocked(e), lineBytes, re)
		} else {
			cutCopy(&l, r.textLocked(e), lineBytes)
		}
		out = append(out, l)
	}
	return out
}

// openLines copies the open line of each stream (stdout first) that fits
// the budget; with grep only those m matches, and matched counts them
// (shown or not). r.mu must be held.
func (r *ring) openLines(m *matcher, grep bool, b *budget) (out []model.Line, matched int) {
	for s := range r.open {
		o := &r.open[s]
		if !o.active() {
			continue
		}
		text := o.buf[:visible(o.buf)]
		if grep {
			if !m.match(text) {
				continue
			}
			matched++
		}
		if !b.take(b.size(text)) {
			continue
		}
		l := model.Line{Stream: model.Stream(s), Time: time.Unix(0, o.time), Dropped: o.dropped, Partial: true}
		cutCopy(&l, text, b.line)
		out = append(out, l)
	}
	return out, matched
}
