package serve

import (
	"slices"
	"sync"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxClients is how many sessionless clients (see clientKey) keep their
// notes; the least recently seen is forgotten first.
const maxClients = 64

// clientKey identifies a client across sessionless requests (protocol
// 2026-07-28 and later over HTTP, where every request is a session of its
// own): by the name and version it gives. Clients that give the same
// share their notes.
type clientKey struct{ name, version string }

// noteKey is whose notes a tool call reads and writes: its MCP session,
// or for a sessionless HTTP request its client (clientKey).
func (s *server) noteKey(req *mcp.CallToolRequest) any {
	return s.requestKey(req)
}

// clientInfoer is a request that names its client (every ServerRequest).
type clientInfoer interface{ ClientInfo() *mcp.Implementation }

// requestKey is noteKey for any request; a client seen for the first time
// is met (notebook.meet).
func (s *server) requestKey(req mcp.Request) any {
	ss, _ := req.GetSession().(*mcp.ServerSession)
	extra := req.GetExtra()
	if ss == nil || ss.ID() != "" || extra == nil || extra.Header == nil {
		// stdio (one session per stream), or an HTTP session
		if ss != nil {
			s.notes.meet(ss, s.core.List)
		}
		return ss
	}
	var k clientKey
	if r, ok := req.(clientInfoer); ok {
		if ci := r.ClientInfo(); ci != nil {
			k = clientKey{ci.Name, ci.Version}
		}
	}
	s.notes.touch(k)
	s.notes.meet(k, s.core.List)
	return k
}

// finished reports whether a job's leader is over: it exited, was killed,
// or never started. Such a job is noted once per client.
func finished(s model.Snapshot) bool {
	return s.Exit != nil || s.State == model.StateFailed
}

// maxShownRanges is how many ranges of shown lines a client's notes keep
// per job; past it the oldest range is forgotten (a line then counts as
// not shown: "already in an earlier result" is never said wrongly).
const maxShownRanges = 32

// notebook remembers, per client (an MCP session, or a clientKey), which
// finished jobs the client has been told about, so that each finished job
// is noted once, and per job which lines it was shown and where its last
// until wait matched.
type notebook struct {
	mu   sync.Mutex
	told map[any]map[model.JobID]bool
	seen map[any]map[model.JobID]*jobNotes
	// clients are the sessionless clients with notes, least recent first.
	clients []clientKey
}

// jobNotes is what one client was shown of one job.
type jobNotes struct {
	// newest is the newest seq shown.
	newest uint64
	// shown are the seq ranges shown, oldest first, disjoint.
	shown []seqRange
	// matched is the seq of the line the client's last until wait on
	// this job matched; hasMatch says there was one.
	matched  uint64
	hasMatch bool
}

// seqRange is the seqs lo to hi.
type seqRange struct{ lo, hi uint64 }

// touch records a request of sessionless client k, forgetting the least
// recent client beyond maxClients.
func (n *notebook) touch(k clientKey) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.clients = slices.DeleteFunc(n.clients, func(c clientKey) bool { return c == k })
	n.clients = append(n.clients, k)
	if len(n.clients) > maxClients {
		old := n.clients[0]
		n.clients = n.clients[1:]
		delete(n.told, old)
		delete(n.seen, old)
	}
}

// jobLocked returns (making it) the notes of client on job id.
func (n *notebook) jobLocked(client any, id model.JobID) *jobNotes {
	if n.seen == nil {
		n.seen = map[any]map[model.JobID]*jobNotes{}
	}
	m := n.seen[client]
	if m == nil {
		m = map[model.JobID]*jobNotes{}
		n.seen[client] = m
	}
	j := m[id]
	if j == nil {
		j = &jobNotes{}
		m[id] = j
	}
	return j
}

// saw records that client was shown the complete lines seqs (ascending)
// of job id.
func (n *notebook) saw(client any, id model.JobID, seqs []uint64) {
	if len(seqs) == 0 {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	j := n.jobLocked(client, id)
	for i := 0; i < len(seqs); {
		k := i
		for k+1 < len(seqs) && seqs[k+1] == seqs[k]+1 {
			k++
		}
		j.shown = addRange(j.shown, seqRange{seqs[i], seqs[k]})
		i = k + 1
	}
	if len(j.shown) > maxShownRanges {
		j.shown = slices.Delete(j.shown, 0, len(j.shown)-maxShownRanges)
	}
	j.newest = max(j.newest, seqs[len(seqs)-1])
}

// addRange merges r into the disjoint, sorted ranges rs.
func addRange(rs []seqRange, r seqRange) []seqRange {
	out := rs[:0:0]
	for _, x := range rs {
		switch {
		case x.hi+1 < r.lo:
			out = append(out, x)
		case r.hi+1 < x.lo:
			out = append(out, r)
			r = x
		default:
			r = seqRange{min(r.lo, x.lo), max(r.hi, x.hi)}
		}
	}
	return append(out, r)
}

// wasShown reports whether client was shown line seq of job id.
func (n *notebook) wasShown(client any, id model.JobID, seq uint64) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, r := range n.seen[client][id].shownRanges() {
		if seq >= r.lo && seq <= r.hi {
			return true
		}
	}
	return false
}

func (j *jobNotes) shownRanges() []seqRange {
	if j == nil {
		return nil
	}
	return j.shown
}

// newest is the newest seq of job id that client was shown (0: none).
func (n *notebook) newest(client any, id model.JobID) uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	if j := n.seen[client][id]; j != nil {
		return j.newest
	}
	return 0
}

// matchCursor is where client's next until wait on job id starts: after
// the line its last one matched, or (false) the whole ring.
func (n *notebook) matchCursor(client any, id model.JobID) (uint64, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if j := n.seen[client][id]; j != nil && j.hasMatch {
		return j.matched, true
	}
	return 0, false
}

// matchCursors are client's until cursors of every job it waited on.
func (n *notebook) matchCursors(client any) map[model.JobID]uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := map[model.JobID]uint64{}
	for id, j := range n.seen[client] {
		if j.hasMatch {
			out[id] = j.matched
		}
	}
	return out
}

// matched records that client's until wait on job id matched line seq
// (an open line: the newest complete seq before it).
func (n *notebook) matched(client any, id model.JobID, seq uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	j := n.jobLocked(client, id)
	j.matched, j.hasMatch = max(j.matched, seq), true
}

// meet records client's first request: the jobs list returns that are
// finished then count as told, so that a new client is noted only the
// jobs that finish after it came, not the whole history. It does nothing
// for a client already met (list is then not called).
func (n *notebook) meet(client any, list func() []model.Snapshot) {
	n.mu.Lock()
	_, known := n.told[client]
	n.mu.Unlock()
	if known {
		return
	}
	jobs := list()
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, known := n.told[client]; known {
		return
	}
	if n.told == nil {
		n.told = map[any]map[model.JobID]bool{}
	}
	t := map[model.JobID]bool{}
	for _, s := range jobs {
		if finished(s) {
			t[s.ID] = true
		}
	}
	n.told[client] = t
}

// untold returns the jobs of list that are finished and that client has
// not been told about, without marking them.
func (n *notebook) untold(client any, list []model.Snapshot) []model.Snapshot {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []model.Snapshot
	for _, s := range list {
		if finished(s) && !n.told[client][s.ID] {
			out = append(out, s)
		}
	}
	return out
}

// take returns the jobs of list that are finished and that client has not
// been told about, and marks them told. Jobs in shown are what the result
// itself shows: those already finished count as told and are not noted.
func (n *notebook) take(client any, list []model.Snapshot, shown ...model.Snapshot) []model.Snapshot {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.told == nil {
		n.told = map[any]map[model.JobID]bool{}
	}
	t := n.told[client]
	if t == nil {
		t = map[model.JobID]bool{}
		n.told[client] = t
	}
	for _, s := range shown {
		if finished(s) {
			t[s.ID] = true
		}
	}
	var notes []model.Snapshot
	for _, s := range list {
		if finished(s) && !t[s.ID] {
			t[s.ID] = true
			notes = append(notes, s)
		}
	}
	if list != nil {
		// A job the core no longer keeps is never listed again (IDs are
		// not reused): the notes stay as small as the table.
		for id := range t {
			if !slices.ContainsFunc(list, func(s model.Snapshot) bool { return s.ID == id }) && !slices.ContainsFunc(shown, func(s model.Snapshot) bool { return s.ID == id }) {
				delete(t, id)
			}
		}
	}
	return notes
}

// forget drops the memory of every client for which live returns false.
func (n *notebook) forget(live func(client any) bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for k := range n.told {
		if !live(k) {
			delete(n.told, k)
		}
	}
	for k := range n.seen {
		if !live(k) {
			delete(n.seen, k)
		}
	}
}
