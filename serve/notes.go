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
	if req.Session == nil || req.Session.ID() != "" || req.Extra == nil || req.Extra.Header == nil {
		return req.Session // stdio (one session per stream), or an HTTP session
	}
	var k clientKey
	if ci := req.ClientInfo(); ci != nil {
		k = clientKey{ci.Name, ci.Version}
	}
	s.notes.touch(k)
	return k
}

// finished reports whether a job's leader is over: it exited, was killed,
// or never started. Such a job is noted once per client.
func finished(s model.Snapshot) bool {
	return s.Exit != nil || s.State == model.StateFailed
}

// notebook remembers, per client session, which finished jobs the client
// has been told about, so that each finished job is noted once. Keys are
// the sessions (*mcp.ServerSession, or any comparable value in tests).
type notebook struct {
	mu   sync.Mutex
	told map[any]map[model.JobID]bool
	seen map[any]map[model.JobID]uint64 // per session: the newest seq shown
	// clients are the sessionless clients with notes, least recent first.
	clients []clientKey
}

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

// saw records that session was shown job id's lines up to seq.
func (n *notebook) saw(session any, id model.JobID, seq uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.seen == nil {
		n.seen = map[any]map[model.JobID]uint64{}
	}
	m := n.seen[session]
	if m == nil {
		m = map[model.JobID]uint64{}
		n.seen[session] = m
	}
	m[id] = max(m[id], seq)
}

// cursor is the newest seq of job id that session was shown (0: none).
func (n *notebook) cursor(session any, id model.JobID) uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.seen[session][id]
}

// take returns the jobs of list that are finished and that session has not
// been told about, and marks them told. Jobs in shown are what the result
// itself shows: those already finished count as told and are not noted.
func (n *notebook) take(session any, list []model.Snapshot, shown ...model.Snapshot) []model.Snapshot {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.told == nil {
		n.told = map[any]map[model.JobID]bool{}
	}
	t := n.told[session]
	if t == nil {
		t = map[model.JobID]bool{}
		n.told[session] = t
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
	return notes
}

// forget drops the memory of every session for which live returns false.
func (n *notebook) forget(live func(session any) bool) {
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
