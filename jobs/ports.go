package jobs

// The port scanner: one goroutine per Table that finds the TCP ports each
// live job's tree listens on, at most once a second and only while some
// job is live, and notices "address already in use" in jobs' output. It
// never touches the ring's write path: it reads lines as any reader does.

import (
	"errors"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/ports"
	"github.com/jobdeck/jobdeck/supervisor"
)

// portScanEvery is the time between two port scans while some job is
// live: at most one a second keeps the scanner within 1 % of a core
// (BenchmarkPortScanner).
const portScanEvery = time.Second

// portState is what the port scanner found for one job (job.portInfo).
type portState struct {
	mu       sync.Mutex // guards ports and conflict; never held while calling out
	ports    []model.Port
	conflict *model.PortConflict

	// root is the pid whose tree the scan reads: the job's supervisor (its
	// tree holds everything the job started, orphans included), found
	// once by the scanner goroutine; zero until then.
	root atomic.Int64
	// noted: the job's snapshot says that ports cannot be seen (scanner
	// goroutine only).
	noted bool

	checkMu sync.Mutex // serialises output checks; guards cursor
	cursor  uint64     // the last line checked for "in use"
}

// get returns copies of the ports and the conflict, for a snapshot; no
// ports once the tree is gone (the scanner clears them soon after).
func (ps *portState) get(treeGone bool) ([]model.Port, *model.PortConflict) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	var c *model.PortConflict
	if ps.conflict != nil {
		cc := *ps.conflict
		if cc.Holder != nil {
			h := *cc.Holder
			cc.Holder = &h
		}
		c = &cc
	}
	if treeGone {
		return nil, c
	}
	return slices.Clone(ps.ports), c
}

// portScanner owns the scanner goroutine of a Table (Table.portScan).
type portScanner struct {
	mu      sync.Mutex
	running bool
	stopped bool
	quit    chan struct{}
}

// startPorts starts the scanner goroutine unless it runs or the table is
// closing. Start calls it before it announces a job, so that the scanner
// sees every EventStarted.
func (t *Table) startPorts() {
	p := &t.portScan
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.running || p.stopped {
		return
	}
	p.running, p.quit = true, make(chan struct{})
	sub := t.Subscribe()
	t.goroutines.Go(func() { t.portLoop(sub, p.quit) })
}

// stopPorts ends the scanner goroutine (Close waits for it with the other
// goroutines of the table).
func (t *Table) stopPorts() {
	p := &t.portScan
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped && p.running {
		close(p.quit)
	}
	p.stopped = true
}

// portLoop scans while some job is live and checks jobs' output when
// their state changes. It reacts to the table's own events: a started
// job arms the timer and has its supervisor found; a state change (an
// exit, the end of the tree) has the job's new output checked and, once
// the tree is gone, its ports cleared.
func (t *Table) portLoop(sub *Subscription, quit <-chan struct{}) {
	defer sub.Close()
	var sc ports.Scanner
	timer := time.NewTimer(portScanEvery)
	timer.Stop()
	armed := false
	arm := func() {
		if !armed {
			timer.Reset(portScanEvery)
			armed = true
		}
	}
	for {
		select {
		case <-quit:
			timer.Stop()
			return
		case <-sub.C():
			for _, ev := range sub.Events() {
				if ev.Kind != model.EventStarted && ev.Kind != model.EventState {
					continue
				}
				j, err := t.find(ev.Job)
				if err != nil {
					continue
				}
				if ev.Kind == model.EventStarted {
					if j.treeLive() { // not a job that failed to start
						t.rootOf(j)
						arm()
					}
					continue
				}
				t.checkOutput(j)
				if !j.treeLive() {
					t.setPorts(j, nil)
				}
			}
		case <-timer.C:
			armed = false
			if t.scanPorts(&sc) {
				arm()
			}
		}
	}
}

// treeLive reports whether the job may have processes: it was started and
// its supervisor has not reported the tree empty.
func (j *job) treeLive() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.h != nil && !j.treeEmpty
}

// scanPorts scans every live job once and reports whether any was live.
func (t *Table) scanPorts(sc *ports.Scanner) bool {
	t.mu.Lock()
	all := slices.Clone(t.jobs)
	t.mu.Unlock()
	var live []*job
	var roots []int
	for _, j := range all {
		if !j.treeLive() {
			continue
		}
		live = append(live, j)
		roots = append(roots, t.rootOf(j))
	}
	if len(live) == 0 {
		return false
	}
	found, err := sc.Scan(roots)
	for i, j := range live {
		if err != nil {
			t.noteNoPorts(j, err)
		}
		if !j.treeLive() {
			// Ended during the scan: its pids may be anybody's by now.
			found[i] = nil
		}
		t.setPorts(j, found[i])
		t.checkOutput(j)
	}
	return true
}

// setPorts records a job's ports and announces a change with a state
// event.
func (t *Table) setPorts(j *job, ps []model.Port) {
	j.portInfo.mu.Lock()
	same := slices.Equal(j.portInfo.ports, ps)
	if !same {
		j.portInfo.ports = ps
	}
	j.portInfo.mu.Unlock()
	if !same {
		j.changedState()
	}
}

// noteNoPorts adds, once per job, a note that its ports cannot be seen.
func (t *Table) noteNoPorts(j *job, err error) {
	if j.portInfo.noted {
		return
	}
	j.portInfo.noted = true
	note := "listening ports are not shown: " + err.Error()
	if errors.Is(err, ports.ErrUnsupported) {
		note = "listening ports are not shown: " + ports.ErrUnsupported.Error()
	}
	j.mu.Lock()
	if !slices.Contains(j.notes, note) {
		j.notes = append(j.notes, note)
	}
	j.mu.Unlock()
	j.changedState()
}

// rootOf returns the pid whose tree holds the job: its supervisor, as its
// handle knows it, or found once as the leader's parent (checked: a child
// of this process, and the leader still carries the job's markers, so its
// pid was not recycled), or, when the leader is gone already, as the child
// of this process whose children carry the job's markers. Zero while
// neither is found (then there is nothing of the job to scan). The
// handle's is the one that always holds: a leader that is the job's own
// program (one simple command, exec'd) may have dropped the markers with
// its environment (env -i server).
func (t *Table) rootOf(j *job) int {
	if r := int(j.portInfo.root.Load()); r != 0 {
		return r
	}
	j.mu.Lock()
	leader, h := j.pid, j.h
	j.mu.Unlock()
	if h != nil {
		if sup := h.SupervisorPid(); sup > 0 {
			j.portInfo.root.Store(int64(sup))
			return sup
		}
	}
	self := os.Getpid()
	if sup, ok := ports.Parent(leader); ok && sup != self {
		if p, ok := ports.Parent(sup); ok && p == self && t.marked(leader, j.id) {
			j.portInfo.root.Store(int64(sup))
			return sup
		}
	}
	for _, sup := range ports.Children(self) {
		for _, c := range ports.Children(sup) {
			if t.marked(c, j.id) {
				j.portInfo.root.Store(int64(sup))
				return sup
			}
		}
	}
	return 0
}

// marked reports whether pid carries the markers of job id of this table.
func (t *Table) marked(pid int, id model.JobID) bool {
	env := ports.Environ(pid, supervisor.EnvSession, supervisor.EnvJob)
	return env[supervisor.EnvSession] == t.session && env[supervisor.EnvJob] == id.String()
}
