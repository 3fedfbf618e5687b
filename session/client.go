//go:build unix

package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/jobdeck/jobdeck/model"
)

// Remote is a console's jobs core: the session's, reached over its
// connection. Its methods mirror the jobs core's and are safe for
// concurrent use; each is one round trip. Once the link is lost every
// method fails with an error wrapping both ErrLinkLost and
// model.ErrUnavailable, and Lost is closed.
type Remote struct {
	conn *Conn
	p    *peer

	mu      sync.Mutex
	info    Info
	ending  string // the session's last word, if it said one
	subs    map[*Subscription]struct{}
	lost    chan struct{}
	lostErr error
}

// Attach joins the session of opts.Target as a console (starting the
// session when none is alive) and returns its core.
func Attach(ctx context.Context, opts JoinOptions) (*Remote, error) {
	opts.Kind = KindConsole
	conn, err := Join(ctx, opts)
	if err != nil {
		return nil, err
	}
	mc, err := connection(context.Background(), conn, conn, conn)
	if err != nil {
		conn.Close()
		return nil, err
	}
	r := &Remote{conn: conn, info: conn.Welcome.Info, subs: map[*Subscription]struct{}{}, lost: make(chan struct{})}
	r.p = newPeer(mc, nil, r.onNotify)
	go func() {
		err := r.p.run(context.Background())
		r.mu.Lock()
		r.lostErr = r.wrapLost(err)
		subs := r.subsLocked()
		r.mu.Unlock()
		close(r.lost)
		for _, s := range subs {
			s.signal()
		}
	}()
	return r, nil
}

// wrapLost words why the link ended. r.mu held.
func (r *Remote) wrapLost(err error) error {
	why := "the session went away without a word (was it killed?)"
	if r.ending != "" {
		why = "the session ended (" + r.ending + ")"
	} else if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		why = fmt.Sprintf("the link to the session broke (%v); was it killed?", err)
	}
	return &lostError{why: why}
}

// lostError is a lost link: its message is why, in a few words, and it is
// both ErrLinkLost and model.ErrUnavailable.
type lostError struct{ why string }

func (e *lostError) Error() string { return e.why }

// Is makes errors.Is find ErrLinkLost and model.ErrUnavailable.
func (e *lostError) Is(target error) bool {
	return target == ErrLinkLost || target == model.ErrUnavailable
}

// Welcome is the session's answer to this console's hello.
func (r *Remote) Welcome() Welcome { return r.conn.Welcome }

// Info is the session as last heard: its clients are kept current by the
// session's notifications.
func (r *Remote) Info() Info {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.info
}

// Lost is closed when the link to the session is gone; Err says why.
func (r *Remote) Lost() <-chan struct{} { return r.lost }

// Err is why the link was lost, or nil while it is up.
func (r *Remote) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lostErr
}

// Close leaves the session (detaches this console).
func (r *Remote) Close() error {
	r.p.close()
	return nil
}

// call makes one request; a lost link becomes model.ErrUnavailable too.
func (r *Remote) call(ctx context.Context, method string, params, result any) error {
	err := r.p.call(ctx, method, params, result)
	if errors.Is(err, ErrLinkLost) {
		<-r.lost
		return r.Err()
	}
	return err
}

// List returns every job's snapshot in ID order, and how many finished
// jobs the session no longer keeps.
func (r *Remote) List(ctx context.Context) ([]model.Snapshot, int, error) {
	var res listResult
	err := r.call(ctx, methodList, struct{}{}, &res)
	return res.Jobs, res.Dropped, err
}

// Read returns lines of one job's ring (raw bytes: the console sanitises).
func (r *Remote) Read(ctx context.Context, id model.JobID, req model.ReadRequest) (model.Page, error) {
	var p model.Page
	err := r.call(ctx, methodRead, readParams{ID: id, Req: req}, &p)
	return p, err
}

// ReadMany reads several rings in one round trip (see the jobs core's
// ReadMany).
func (r *Remote) ReadMany(ctx context.Context, reqs []model.JobRead) ([]model.JobPage, error) {
	var res readManyResult
	err := r.call(ctx, methodReadN, readManyParams{Reads: reqs}, &res)
	return res.Pages, err
}

// Frame lists every job and reads several rings in one round trip (see
// the jobs core's Frame): what one frame of a console shows.
func (r *Remote) Frame(ctx context.Context, reqs []model.JobRead) ([]model.Snapshot, []model.JobPage, error) {
	var res frameResult
	err := r.call(ctx, methodFrame, readManyParams{Reads: reqs}, &res)
	return res.Jobs, res.Pages, err
}

// Start starts a job in the session; an empty Dir and a nil Env mean this
// console's (as its hello gave them).
func (r *Remote) Start(ctx context.Context, spec model.Spec) (model.Report, error) {
	var rep model.Report
	err := r.call(ctx, methodStart, startParams{Spec: spec}, &rep)
	return rep, err
}

// Status returns a job's report (see the jobs core's Status).
func (r *Remote) Status(ctx context.Context, id model.JobID, opts model.StatusOptions) (model.Report, error) {
	var rep model.Report
	err := r.call(ctx, methodStatus, statusParams{ID: id, Opts: opts}, &rep)
	return rep, err
}

// Kill stops a job and its tree; it returns once the tree is empty.
func (r *Remote) Kill(ctx context.Context, id model.JobID, opts model.KillOptions) (model.Report, error) {
	var rep model.Report
	err := r.call(ctx, methodKill, killParams{ID: id, Opts: opts}, &rep)
	return rep, err
}

// Restart stops a job (when live) and starts its command again as a new
// job, with the environment and directory of the old run; the report is
// the new run's.
func (r *Remote) Restart(ctx context.Context, id model.JobID, opts model.RestartOptions) (model.Report, error) {
	var rep model.Report
	err := r.call(ctx, methodRestart, restartParams{ID: id, Opts: opts}, &rep)
	return rep, err
}

// Remove takes a finished job out of the session's list.
func (r *Remote) Remove(ctx context.Context, id model.JobID) error {
	var res struct{}
	return r.call(ctx, methodRemove, removeParams{ID: id}, &res)
}

// Clear removes every finished job of the session and returns their IDs.
func (r *Remote) Clear(ctx context.Context) ([]model.JobID, error) {
	var res clearResult
	err := r.call(ctx, methodClear, struct{}{}, &res)
	return res.Removed, err
}

// Resolve turns a selector into a job ID.
func (r *Remote) Resolve(ctx context.Context, sel string) (model.JobID, error) {
	var res resolveResult
	err := r.call(ctx, methodResolve, resolveParams{Sel: sel}, &res)
	return res.ID, err
}

// Resize sets the size of a job's pty (see the jobs core's Resize).
func (r *Remote) Resize(ctx context.Context, id model.JobID, size model.TermSize) error {
	return r.call(ctx, methodResize, resizeParams{ID: id, Size: size}, nil)
}

// onNotify takes the session's notifications (on the read loop: it never
// blocks).
func (r *Remote) onNotify(method string, params json.RawMessage) {
	switch method {
	case notifyEvents:
		var p eventsParams
		if json.Unmarshal(params, &p) != nil {
			return
		}
		r.deliver(p.Events, false)
	case notifyClients:
		var info Info
		if json.Unmarshal(params, &info) != nil {
			return
		}
		r.mu.Lock()
		r.info = info
		r.mu.Unlock()
		r.deliver(nil, true)
	case notifyEnding:
		var p endingParams
		_ = json.Unmarshal(params, &p)
		r.mu.Lock()
		r.ending = p.Reason
		r.mu.Unlock()
	}
}

func (r *Remote) subsLocked() []*Subscription {
	out := make([]*Subscription, 0, len(r.subs))
	for s := range r.subs {
		out = append(out, s)
	}
	return out
}

func (r *Remote) deliver(evs []model.Event, clients bool) {
	r.mu.Lock()
	subs := r.subsLocked()
	r.mu.Unlock()
	for _, s := range subs {
		s.add(evs, clients)
	}
}

// Subscribe returns a subscription to the session's events.
func (r *Remote) Subscribe() *Subscription {
	s := &Subscription{r: r, seen: map[model.Event]bool{}, wake: make(chan struct{}, 1)}
	r.mu.Lock()
	r.subs[s] = struct{}{}
	r.mu.Unlock()
	return s
}

// Subscription delivers a Remote's events: the core's (folded per job and
// kind while unread, as the session folds them) and, as Clients, that the
// attached clients changed.
type Subscription struct {
	r       *Remote
	mu      sync.Mutex
	pending []model.Event
	seen    map[model.Event]bool
	clients bool
	closed  bool
	wake    chan struct{}
}

// Batch is what one Wait returns.
type Batch struct {
	Events []model.Event
	// Clients reports that the session's attached clients changed (read
	// them with Remote.Info).
	Clients bool
}

func (s *Subscription) add(evs []model.Event, clients bool) {
	s.mu.Lock()
	for _, ev := range evs {
		if !s.seen[ev] {
			s.seen[ev] = true
			s.pending = append(s.pending, ev)
		}
	}
	s.clients = s.clients || clients
	s.mu.Unlock()
	s.signal()
}

func (s *Subscription) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Wait blocks until something is pending and takes it. It returns ctx's
// error when ctx ends first, model.ErrClosed after Close, and the link's
// error (wrapping ErrLinkLost and model.ErrUnavailable) once it is lost.
func (s *Subscription) Wait(ctx context.Context) (Batch, error) {
	for {
		s.mu.Lock()
		b := Batch{Events: s.pending, Clients: s.clients}
		s.pending, s.clients = nil, false
		clear(s.seen)
		closed := s.closed
		s.mu.Unlock()
		switch {
		case len(b.Events) > 0 || b.Clients:
			return b, nil
		case closed:
			return Batch{}, model.ErrClosed
		}
		if err := s.r.Err(); err != nil {
			return Batch{}, err
		}
		select {
		case <-ctx.Done():
			return Batch{}, ctx.Err()
		case <-s.wake:
		}
	}
}

// Close ends the subscription; a blocked Wait returns.
func (s *Subscription) Close() {
	s.r.mu.Lock()
	delete(s.r.subs, s)
	s.r.mu.Unlock()
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.signal()
}
