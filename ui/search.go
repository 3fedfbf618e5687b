package ui

import (
	"fmt"
	"regexp"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/jobdeck/jobdeck/model"
)

// Search: Ctrl+F asks for a regular expression and searches the focused
// job's ring for it (the core's grep: every line the ring holds), or the
// lines of the open overlay. The pane (or overlay) moves to the newest
// match; n goes to the next older match and N to the next newer one,
// wrapping around; every match in view is highlighted, the current one
// more. Each n or N searches the ring again, so a flood's matches stay
// current. Esc ends the search, and the pane (or overlay) goes back to
// where it was before it: following, if it was.

// searchLines is how many matches a search brings back at most: the whole
// ring.
const searchLines = model.MaxStatusLines

// searchTextBytes bounds each matched line's text in a search's answer:
// only the seqs are needed.
const searchTextBytes = 32

// searchDir says which match a search goes to.
type searchDir int8

const (
	searchNewest searchDir = iota // the newest match (a new search)
	searchOlder                   // the next older than the current one (n)
	searchNewer                   // the next newer than the current one (N)
)

// search is an active search.
type search struct {
	pattern string
	re      *regexp.Regexp
	job     model.JobID // the job whose ring is searched
	overlay bool        // the overlay's lines are searched instead
	// Matches as last found: seqs of the job's lines, ascending (for the
	// overlay: line indexes + 1); total counts them in the ring.
	matches []uint64
	total   int
	cur     uint64 // the current match (0: none)
	busy    bool   // a search of the ring is on its way
	wrapped bool   // the last move went around the end
	gone    bool   // the last move (n) found the older matches evicted
	// Where the pane was before the search (Esc goes back there): its top
	// line while paused (was), or following (wasPaused false).
	was       uint64
	wasPaused bool
}

// openSearch opens the search prompt for the overlay, or for the focused
// job's pane.
func (m *Model) openSearch() {
	target, label := model.JobID(0), ""
	switch {
	case m.overlay != nil:
		label = "search " + m.overlay.title + ": "
	case m.hasCurrent:
		target = m.current
		label = "search job " + target.String() + ": "
	default:
		m.setMessage("no job to search: start one with /background <command>", true)
		return
	}
	p := newPalette("", m.searchHistory, m.st)
	p.input.Prompt = label
	p.search = &searchTarget{job: target, overlay: m.overlay != nil}
	p.setWidth(m.width)
	m.palette = p
}

// searchTarget is what a search prompt searches.
type searchTarget struct {
	job     model.JobID
	overlay bool
}

// submitSearch runs the search prompt's pattern: a bad one is said inline
// (the text kept); a good one becomes the active search and goes to the
// newest match.
func (m *Model) submitSearch(pattern string) tea.Cmd {
	p := m.palette
	if pattern == "" {
		p.err = "type a regular expression to search for (Go RE2: ready|listening on, error [0-9]+)"
		return nil
	}
	if n := len(m.searchHistory); n == 0 || m.searchHistory[n-1] != pattern {
		m.searchHistory = append(m.searchHistory, pattern)
	}
	re, err := model.CompilePattern(model.FieldGrep, pattern)
	if err != nil {
		p.err = "search: " + m.reword(err)
		return nil
	}
	t := p.search
	m.palette = nil
	m.search = &search{pattern: pattern, re: re, job: t.job, overlay: t.overlay}
	if prev := m.search; !t.overlay {
		prev.was, prev.wasPaused = m.scroll[t.job]
	} else if m.overlay != nil {
		prev.was = uint64(m.overlay.top)
	}
	return m.searchMove(searchNewest)
}

// searchMove goes to the newest match, or the next older or newer one: in
// the overlay at once, in a ring after searching it again.
func (m *Model) searchMove(dir searchDir) tea.Cmd {
	s := m.search
	if s.overlay {
		if m.overlay == nil {
			m.search = nil
			return nil
		}
		s.matches = s.matches[:0]
		for i, l := range m.overlay.lines {
			if s.re.MatchString(l) {
				s.matches = append(s.matches, uint64(i+1))
			}
		}
		s.total = len(s.matches)
		m.landOn(dir, s.cur)
		return nil
	}
	if s.busy {
		return nil
	}
	s.busy = true
	return grepCmd(m.ctx, m.core, s.pattern, dir, s.cur, m.searchPane(s.job))
}

// landOn makes the match dir names (from the match from) the current one
// and brings it into view.
func (m *Model) landOn(dir searchDir, from uint64) {
	s := m.search
	s.cur, s.wrapped, s.gone = pickMatch(s.matches, dir, from)
	if s.cur != 0 {
		m.showMatch()
	}
}

// showMatch scrolls the current match into view: the overlay to put it
// near the top; the pane (focused, so it shows) too, unless the match is
// among the lines it shows while following.
func (m *Model) showMatch() {
	s := m.search
	if s.overlay {
		m.overlay.top, m.overlay.sub = max(int(s.cur)-1-2, 0), 0
		m.overlay.scroll(0, m.layout().panes)
		return
	}
	m.current, m.hasCurrent = s.job, true
	rows := m.focusedRows()
	snap, ok := m.snapshot(s.job)
	if !ok || rows <= 0 {
		return
	}
	if _, paused := m.scroll[s.job]; !paused && snap.Lines >= s.cur && snap.Lines-s.cur < uint64(rows) && !m.wrap[s.job] {
		return // in view while following
	}
	top, back := uint64(1), min(uint64(rows/4), 3) // a few lines of context above it
	if s.cur > back+1 {
		top = s.cur - back
	}
	m.scroll[s.job] = top
}

// endSearch ends the active search: the highlights go, and the pane (or
// the overlay) goes back to where it was before the search, following
// again if it was.
func (m *Model) endSearch() {
	s := m.search
	m.search = nil
	switch {
	case s == nil:
	case s.overlay:
		if m.overlay != nil {
			m.overlay.top, m.overlay.sub = int(s.was), 0
		}
	case s.wasPaused:
		m.scroll[s.job] = s.was
	default:
		delete(m.scroll, s.job)
	}
}

// searchLine is what the status line says while a search is active.
func (m *Model) searchLine() string {
	s := m.search
	where := "job " + s.job.String()
	if s.overlay {
		where = "the overlay"
	}
	k := m.keys
	keys := firstKey(k.SearchNext) + " older · " + firstKey(k.SearchPrev) + " newer · " + firstKey(k.Close) + " ends the search"
	switch {
	case s.busy && s.total == 0:
		return fmt.Sprintf("searching %s for /%s/ …", where, s.pattern)
	case len(s.matches) == 0:
		return fmt.Sprintf("/%s/: no line of %s matches · %s", s.pattern, where, keys)
	}
	i, _ := slices.BinarySearch(s.matches, s.cur)
	pos := fmt.Sprintf("match %d of %d", i+1, len(s.matches))
	if s.total > len(s.matches) {
		pos += fmt.Sprintf(" (the newest %d of %d)", len(s.matches), s.total)
	}
	if s.wrapped {
		pos += " (wrapped)"
	}
	if s.gone {
		pos += " (the ring evicted the older ones)"
	}
	return fmt.Sprintf("/%s/ in %s: %s · %s", s.pattern, where, pos, keys)
}

// searchIn returns how job id's pane highlights the active search: not
// at all unless the search is of that job's ring.
func (m *Model) searchIn(id model.JobID) paneHL {
	if s := m.search; s != nil && !s.overlay && s.job == id {
		return paneHL{s.re, s.cur}
	}
	return paneHL{}
}

// firstKey is the first key of b, as the help names keys ("esc").
func firstKey(b key.Binding) string {
	if ks := b.Keys(); len(ks) > 0 {
		return ks[0]
	}
	return b.Help().Key
}

// paneHL is how a pane highlights the active search's matches: none
// (re nil), or re's matches, those on line cur as the current one.
type paneHL struct {
	re  *regexp.Regexp
	cur uint64
}

// mark returns text (styledLine's) with the search's matches highlighted
// when the pane has a search; text itself otherwise.
func (h paneHL) mark(text string, seq uint64) string {
	if h.re == nil {
		return text
	}
	if seq == h.cur && seq != 0 {
		return highlight(text, h.re, curOpen, curClose)
	}
	return highlight(text, h.re, matchOpen, matchClose)
}
