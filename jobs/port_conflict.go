package jobs

// "Address already in use": the output check that finds the line, and the
// lookup of who holds the port, recorded as Snapshot.PortConflict.

import (
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ports"
	"github.com/jobdeck/jobdeck/supervisor"
)

// portCheckLines is the most lines one output check reads: the newest of
// what came since the last check. A job printing more than this between
// two checks (a second apart while it runs) may have an older "in use"
// line skipped; a server that fails to bind prints it among its last.
const portCheckLines = 500

// portContextBefore and portContextAfter are how many lines before and
// after an "in use" line that names no port are searched for one.
const portContextBefore, portContextAfter = 5, 3

// portBurst is how far before the newest "in use" line an earlier one
// that names the port still counts as the same failure.
const portBurst = 30

// checkOutput reads the job's complete lines printed since the last check
// and, when one says a port is already in use, records that failure (its
// newest such line, or the one of its lines that names the port) with who
// holds the port, announced by a state event. It is called
// by the scanner after each scan and each state change of the job, and
// by report, so that a report always reflects the output it shows.
func (t *Table) checkOutput(j *job) {
	ps := &j.portInfo
	ps.checkMu.Lock()
	defer ps.checkMu.Unlock()
	p := j.ring.read(model.ReadRequest{After: ps.cursor, Limit: portCheckLines, Tail: true, NoPartial: true})
	if len(p.Lines) == 0 {
		return
	}
	ps.cursor = p.Next
	// The newest line that says so; when it names no port, the nearest
	// line before it that does (Node prints "address already in use
	// 127.0.0.1:3000", its stack, then "code: 'EADDRINUSE'").
	newest, hit, port := -1, -1, 0
	for i := len(p.Lines) - 1; i >= 0 && (newest < 0 || newest-i <= portBurst); i-- {
		n, ok := ports.InUse(p.Lines[i].Text)
		if !ok {
			continue
		}
		if newest < 0 {
			newest, hit = i, i
		}
		if n != 0 {
			hit, port = i, n
			break
		}
	}
	if hit < 0 {
		return
	}
	seq := p.Lines[hit].Seq
	if port == 0 {
		// Part of a failure an earlier check saw, with its port?
		ps.mu.Lock()
		prev := ps.conflict
		ps.mu.Unlock()
		if prev != nil && prev.Port != 0 && prev.Seq+portBurst >= seq {
			return
		}
	}
	var candidates []int
	if port != 0 {
		candidates = []int{port}
	} else {
		for _, l := range p.Lines[max(hit-portContextBefore, 0):min(hit+portContextAfter+1, len(p.Lines))] {
			candidates = append(candidates, ports.Named(string(l.Text))...)
		}
		candidates = append(candidates, ports.Named(j.spec.Command)...)
	}
	c := t.lookUpConflict(candidates)
	c.Seq = seq
	ps.mu.Lock()
	ps.conflict = c
	ps.mu.Unlock()
	j.changedState()
}

// lookUpConflict returns the conflict on the first of candidates that
// something listens on; with none, the first candidate (or zero) and no
// holder.
func (t *Table) lookUpConflict(candidates []int) *model.PortConflict {
	c := &model.PortConflict{At: time.Now()}
	owners := t.treeOwners()
	for i, port := range candidates {
		if slices.Contains(candidates[:i], port) {
			continue
		}
		if c.Port == 0 {
			c.Port = port
		}
		if h := t.holderOf(port, owners); h != nil {
			c.Port, c.Holder = port, h
			break
		}
	}
	return c
}

// treeOwners maps the supervisors and running leaders of the live jobs to
// their jobs (pids that cannot be recycled while the job is live: this
// process has not reaped the supervisor, the supervisor not the leader).
func (t *Table) treeOwners() map[int]*job {
	t.mu.Lock()
	all := slices.Clone(t.jobs)
	t.mu.Unlock()
	owners := map[int]*job{}
	for _, j := range all {
		j.mu.Lock()
		live, leader, running := j.h != nil && !j.treeEmpty, j.pid, j.exit == nil
		j.mu.Unlock()
		if !live {
			continue
		}
		if running && leader > 0 {
			owners[leader] = j
		}
		if root := int(j.portInfo.root.Load()); root > 0 {
			owners[root] = j
		}
	}
	return owners
}

// holderOf finds who listens on port and whose it is: a job of this
// table (its tree holds the process), a job of another jobdeck session
// (the process carries another session's marker), or neither. When
// several sockets listen on port (IPv4 and IPv6), one that belongs to a
// job wins, then one whose process could be seen. Nil when nothing
// listens on port.
func (t *Table) holderOf(port int, owners map[int]*job) *model.PortHolder {
	hs, err := ports.Holders(port, t.knownHolders(port)...)
	if err != nil || len(hs) == 0 {
		return nil
	}
	best := -1
	for i := range hs {
		t.attribute(&hs[i], owners)
		switch {
		case best < 0,
			hs[i].Job != nil && hs[best].Job == nil,
			hs[i].Socket.PID != 0 && hs[best].Socket.PID == 0 && hs[best].Job == nil:
			best = i
		}
	}
	return &hs[best]
}

// knownHolders lists the pids that the last scan saw listening on port
// (in any job), for Holders to look at first.
func (t *Table) knownHolders(port int) []int {
	var pids []int
	for _, s := range t.List() {
		for _, p := range s.Ports {
			if p.Port == port && p.PID != 0 {
				pids = append(pids, p.PID)
			}
		}
	}
	return pids
}

// attribute fills in whose h's process is: a live job of this table whose
// supervisor or leader is the process or one of its ancestors; else,
// from its environment markers, a job of this session whose supervisor is
// gone, or one of another session.
func (t *Table) attribute(h *model.PortHolder, owners map[int]*job) {
	pid := h.Socket.PID
	if pid == 0 {
		return
	}
	for _, p := range append([]int{pid}, ports.Ancestors(pid)...) {
		if j, ok := owners[p]; ok {
			t.setHolderJob(h, j)
			return
		}
	}
	env := ports.Environ(pid, supervisor.EnvSession, supervisor.EnvJob)
	session, ok := env[supervisor.EnvSession]
	switch {
	case !ok || pid == os.Getpid():
	case session != t.session:
		h.OtherSession = true
	default:
		if n, err := strconv.Atoi(env[supervisor.EnvJob]); err == nil {
			if j, err := t.find(model.JobID(n)); err == nil {
				t.setHolderJob(h, j)
			}
		}
	}
}

// setHolderJob names j as the holder's job.
func (t *Table) setHolderJob(h *model.PortHolder, j *job) {
	id := j.id
	h.Job, h.JobName = &id, j.spec.Name
}
