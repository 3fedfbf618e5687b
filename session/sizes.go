//go:build unix

package session

import (
	"sync"

	"github.com/jobdeck/jobdeck/model"
)

// sizes keeps, for each job, the terminal size each console asked for it
// (its pane's text area); the job's pty gets the smallest in each
// dimension, as tmux sizes a window shown by several clients, so that
// every console that shows the job sees output that fits its pane. A
// console's wishes end when it leaves.
type sizes struct {
	mu   sync.Mutex
	want map[model.JobID]map[int]model.TermSize // job → client → size
}

// set records client's size for job and returns the size the job gets.
func (z *sizes) set(client int, id model.JobID, size model.TermSize) model.TermSize {
	z.mu.Lock()
	defer z.mu.Unlock()
	if z.want == nil {
		z.want = map[model.JobID]map[int]model.TermSize{}
	}
	m := z.want[id]
	if m == nil {
		m = map[int]model.TermSize{}
		z.want[id] = m
	}
	m[client] = size
	return smallest(m)
}

// drop forgets client's sizes and returns, for each job whose size that
// changes, the size it gets now.
func (z *sizes) drop(client int) map[model.JobID]model.TermSize {
	z.mu.Lock()
	defer z.mu.Unlock()
	out := map[model.JobID]model.TermSize{}
	for id, m := range z.want {
		if _, ok := m[client]; !ok {
			continue
		}
		before := smallest(m)
		delete(m, client)
		if len(m) == 0 {
			delete(z.want, id)
			continue
		}
		if after := smallest(m); after != before {
			out[id] = after
		}
	}
	return out
}

// smallest is the smallest size in each dimension.
func smallest(m map[int]model.TermSize) model.TermSize {
	var s model.TermSize
	first := true
	for _, v := range m {
		if first {
			s, first = v, false
			continue
		}
		s.Cols, s.Rows = min(s.Cols, v.Cols), min(s.Rows, v.Rows)
	}
	return s
}

// resize applies a console's size for a job: the smallest any console
// showing it asked for.
func (s *server) resize(client int, id model.JobID, size model.TermSize) error {
	if err := model.CheckTermSize(size, model.ErrBadRequest); err != nil {
		return err
	}
	return s.table.Resize(id, s.sizes.set(client, id, size))
}

// releaseSizes forgets a leaving console's sizes; the jobs it showed get
// what the other consoles asked for.
func (s *server) releaseSizes(client int) {
	for id, size := range s.sizes.drop(client) {
		_ = s.table.Resize(id, size) // a job that ended since: nothing to size
	}
}
