package serve

import "slices"

// Which lines a result leaves out when its words do not fit the budget:
// the oldest units (a tail read), or the newest (a head read, which then
// pages on from the newest unit it kept), a grep's context lines with
// the match they were there for.

// drop leaves out the oldest unit of ls, or after a head read the newest
// (the cursor then moves back to the newest unit kept), and counts it.
func (v view) drop(ls []shownLine, cut *pageCut) []shownLine {
	if !v.rep.Read.Head {
		ls, n := v.dropOldest(ls)
		cut.skipped += uint64(n)
		return ls
	}
	ls, n := v.dropNewest(ls)
	cut.more += uint64(n)
	cut.next = v.rep.Read.From
	for i := len(ls) - 1; i >= 0; i-- {
		if ls[i].match {
			cut.next = ls[i].l.Seq
			break
		}
	}
	return ls
}

// dropOldest leaves out the oldest line of ls, or with grep the oldest
// match and the context lines no kept match needs; it returns the lines
// kept and how many units (lines, or matches) it left out.
func (v view) dropOldest(ls []shownLine) ([]shownLine, int) {
	if v.grep == "" {
		return ls[1:], 1
	}
	i := slices.IndexFunc(ls, func(l shownLine) bool { return l.match })
	if i < 0 {
		return nil, 0
	}
	ls = ls[i+1:]
	for len(ls) > 0 && !ls[0].match && !v.needed(ls, ls[0]) {
		ls = ls[1:]
	}
	return ls, 1
}

// dropNewest leaves out the newest line of ls, or with grep the newest
// match and the context lines no kept match needs; it returns the lines
// kept and how many units it left out.
func (v view) dropNewest(ls []shownLine) ([]shownLine, int) {
	if v.grep == "" {
		return ls[:len(ls)-1], 1
	}
	i := -1
	for k := len(ls) - 1; k >= 0; k-- {
		if ls[k].match {
			i = k
			break
		}
	}
	if i < 0 {
		return nil, 0
	}
	ls = ls[:i]
	for len(ls) > 0 && !ls[len(ls)-1].match && !v.needed(ls, ls[len(ls)-1]) {
		ls = ls[:len(ls)-1]
	}
	return ls, 1
}

// needed reports whether context line l is within the context of a match
// of ls.
func (v view) needed(ls []shownLine, l shownLine) bool {
	c := uint64(v.context)
	for _, m := range ls {
		if m.match && l.l.Seq+c >= m.l.Seq && l.l.Seq <= m.l.Seq+c {
			return true
		}
	}
	return false
}
