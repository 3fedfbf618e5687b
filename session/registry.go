//go:build unix

package session

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ports"
)

// admit registers a client after its hello. Attached kinds (all but
// control) cancel the linger, unless they run inside the session's own
// jobs (ClientInfo.Nested). It fails once the session is ending.
func (s *server) admit(h Hello, c interface{ Close() error }) (*client, error) {
	var nested bool
	var inJob *model.JobID
	if h.Kind != KindControl {
		nested, inJob = s.nestedIn(h.PID) // before s.mu: it reads the table
	}
	s.mu.Lock()
	if s.phase == phaseEnding {
		s.mu.Unlock()
		return nil, errEnding
	}
	s.nextID++
	cl := &client{
		info:     ClientInfo{ID: s.nextID, Kind: h.Kind, Name: clientName(h), PID: h.PID, Since: time.Now()},
		attached: h.Kind != KindControl,
		close:    func() { c.Close() },
	}
	cl.info.Nested, cl.info.InJob = nested, inJob
	s.clients[cl.info.ID] = cl
	if cl.attached && !cl.info.Nested {
		s.phase = phaseAttached
		s.attachedOnce = true
		if s.linger != nil {
			s.linger.Stop()
		}
	}
	s.mu.Unlock()
	if cl.attached {
		s.log.printf("client %d attached: %s %s (pid %d)", cl.info.ID, cl.info.Kind, cl.info.Name, cl.info.PID)
		s.clientsChanged()
	}
	return cl, nil
}

// clientName is how a client is listed before it names itself: its given
// name, else "agent" for an agent over stdio (serve.ShownClient's word for
// an MCP client without a name), else its kind.
func clientName(h Hello) string {
	switch {
	case h.Name != "":
		return model.OneLine(h.Name, 40)
	case h.Kind == KindMCP:
		return "agent"
	}
	return string(h.Kind)
}

// leave unregisters a client; the last attached one to leave starts the
// linger.
func (s *server) leave(cl *client) {
	s.mu.Lock()
	delete(s.clients, cl.info.ID)
	delete(s.watch, cl.info.ID)
	if cl.attached && s.phase == phaseAttached && s.keepingLocked() == 0 {
		s.phase = phaseLingering
		s.startLingerLocked()
	}
	s.mu.Unlock()
	if cl.attached {
		s.log.printf("client %d left: %s %s", cl.info.ID, cl.info.Kind, cl.info.Name)
		s.clientsChanged()
	}
	if cl.info.Kind == KindConsole {
		s.releaseSizes(cl.info.ID)
	}
}

// keepingLocked counts the clients that keep the session alive: attached
// ones that do not run inside its own jobs. s.mu held.
func (s *server) keepingLocked() int {
	n := 0
	for _, c := range s.clients {
		if c.attached && !c.info.Nested {
			n++
		}
	}
	return n
}

// nestedIn tells whether the process pid runs inside one of this
// session's jobs (the session process is among its ancestors: its jobs'
// supervisors are its children, and it is the subreaper of their orphans),
// and which job, when one's leader is pid or among its ancestors. pid 0
// (unknown) is not nested.
func (s *server) nestedIn(pid int) (bool, *model.JobID) {
	if pid <= 0 {
		return false, nil
	}
	chain := append([]int{pid}, ports.Ancestors(pid)...)
	if !slices.Contains(chain, s.pid) {
		return false, nil
	}
	for _, j := range s.table.List() {
		if j.PID > 0 && slices.Contains(chain, j.PID) {
			id := j.ID
			return true, &id
		}
	}
	return true, nil
}

// setClose replaces how the session ends a client's connection.
func (s *server) setClose(cl *client, f func()) {
	s.mu.Lock()
	cl.close = f
	s.mu.Unlock()
}

// rename sets a client's shown name (an agent's, once its MCP initialize
// names it).
func (s *server) rename(cl *client, name string) {
	name = model.OneLine(name, 40)
	s.mu.Lock()
	changed := name != "" && cl.info.Name != name
	if changed {
		cl.info.Name = name
	}
	s.mu.Unlock()
	if changed {
		s.clientsChanged()
	}
}

// watchClients registers f to be called (without locks held, never
// blocking for long) whenever the list of attached clients changes; the
// registration ends when the client leaves.
func (s *server) watchClients(cl *client, f func()) {
	s.mu.Lock()
	s.watch[cl.info.ID] = f
	s.mu.Unlock()
}

func (s *server) clientsChanged() {
	s.mu.Lock()
	fs := make([]func(), 0, len(s.watch))
	for _, f := range s.watch {
		fs = append(fs, f)
	}
	s.mu.Unlock()
	for _, f := range fs {
		f()
	}
	_ = s.writeInfo()
}

// info describes the session now.
func (s *server) info() Info {
	s.mu.Lock()
	var cs []ClientInfo
	for _, c := range s.clients {
		if c.attached {
			cs = append(cs, c.info)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(cs, func(a, b ClientInfo) int { return a.ID - b.ID })
	running, all := 0, 0
	for _, j := range s.table.List() {
		all++
		if j.Live() {
			running++
		}
	}
	return Info{
		Key: s.cfg.Target.Key(), Name: s.cfg.Target.Name, Worktree: s.cfg.Target.Worktree,
		PID: s.pid, Started: s.started, Version: Version(), Protocol: Protocol,
		Clients: cs, Running: running, Jobs: all,
	}
}

// writeEnding marks the info file as ending (Info.Ending), for `jobdeck
// sessions` while the jobs stop; Main removes the file at the very end.
func (s *server) writeEnding() {
	s.infoMu.Lock()
	defer s.infoMu.Unlock()
	info := s.info()
	info.Ending = true
	_ = s.writeInfoFile(info)
}

// writeInfo writes the session's info file (<key>.json, 0600) by rename,
// so a reader never sees half of it. It is for people and `jobdeck
// sessions`; liveness is the lock. The snapshot is taken under infoMu, so
// of two changes at once the later write holds both.
func (s *server) writeInfo() error {
	s.infoMu.Lock()
	defer s.infoMu.Unlock()
	s.mu.Lock()
	ending := s.phase == phaseEnding
	s.mu.Unlock()
	if ending {
		return nil
	}
	return s.writeInfoFile(s.info())
}

// writeInfoFile writes info as the session's info file; s.infoMu held.
// On any failure (a full disk, for one) it removes its temporary file.
func (s *server) writeInfoFile(info Info) error {
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	tmp := s.cfg.path(fmt.Sprintf(".json.%d.tmp", s.pid))
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write the session info: %w", err)
	}
	if err := os.Rename(tmp, s.cfg.path(".json")); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write the session info: %w", err)
	}
	return nil
}
