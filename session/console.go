//go:build unix

package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The console dialect: requests a console sends (each answered with the
// jobs core's own structure, or its error with the error's stable code),
// and the notifications the session sends it.
const (
	methodList    = "jobs/list"     // {} → listResult
	methodRead    = "jobs/read"     // readParams → model.Page (raw line bytes: colours kept)
	methodStart   = "jobs/start"    // startParams → model.Report
	methodStatus  = "jobs/status"   // statusParams → model.Report
	methodKill    = "jobs/kill"     // killParams → model.Report
	methodResolve = "jobs/resolve"  // resolveParams → resolveResult
	methodRestart = "jobs/restart"  // restartParams → model.Report (the new run's)
	methodRemove  = "jobs/remove"   // removeParams → struct{}
	methodClear   = "jobs/clear"    // {} → clearResult
	methodResize  = "jobs/resize"   // resizeParams → struct{}
	methodReadN   = "jobs/readmany" // readManyParams → readManyResult (raw line bytes)
	methodFrame   = "jobs/frame"    // readManyParams → frameResult: a frame's list and windows in one round trip

	notifyEvents  = "jobs/events"     // eventsParams: coalesced events
	notifyClients = "session/clients" // Info: the attached clients changed
	notifyEnding  = "session/ending"  // endingParams: the session is ending
)

type listResult struct {
	Jobs    []model.Snapshot `json:"jobs"`
	Dropped int              `json:"dropped"`
}

type readParams struct {
	ID  model.JobID       `json:"id"`
	Req model.ReadRequest `json:"req"`
}

type startParams struct {
	Spec model.Spec `json:"spec"`
}

type statusParams struct {
	ID   model.JobID         `json:"id"`
	Opts model.StatusOptions `json:"opts"`
}

type killParams struct {
	ID   model.JobID       `json:"id"`
	Opts model.KillOptions `json:"opts"`
}

type restartParams struct {
	ID   model.JobID          `json:"id"`
	Opts model.RestartOptions `json:"opts"`
}

type removeParams struct {
	ID model.JobID `json:"id"`
}

type clearResult struct {
	Removed []model.JobID `json:"removed"`
}

type resolveParams struct {
	Sel string `json:"sel"`
}

type readManyParams struct {
	Reads []model.JobRead `json:"reads"`
}

type readManyResult struct {
	Pages []model.JobPage `json:"pages"`
}

type frameResult struct {
	Jobs  []model.Snapshot `json:"jobs"`
	Pages []model.JobPage  `json:"pages"`
}

type resizeParams struct {
	ID   model.JobID    `json:"id"`
	Size model.TermSize `json:"size"`
}

type resolveResult struct {
	ID model.JobID `json:"id"`
}

// eventsParams carries events, oldest first; Merged counts events folded
// into one already pending for the same job and kind while the console
// was not reading.
type eventsParams struct {
	Events []model.Event `json:"events"`
	Merged int           `json:"merged,omitempty"`
}

type endingParams struct {
	Reason string `json:"reason"`
}

// serveConsole serves the console dialect on one connection until it ends.
func (s *server) serveConsole(ctx context.Context, conn *serverConn) error {
	mc, err := serverConnection(ctx, conn)
	if err != nil {
		return err
	}
	h := consoleHandler{s: s, hello: conn.hello, owner: conn.client.info.Name, client: conn.client.info.ID}
	p := newPeer(mc, h.handle, nil)
	f := newForwarder()
	sub := s.table.Subscribe()
	defer sub.Close()
	go func() {
		for {
			evs, err := sub.Wait(ctx)
			if err != nil {
				return
			}
			f.add(evs)
		}
	}()
	s.watchClients(conn.client, f.clientsChanged)
	// The welcome's list of clients was taken before the watch began: a
	// client that named itself in between (an agent's initialize) would
	// stay unnamed on this console, so the list goes out once more.
	f.clientsChanged()
	go f.run(ctx, p, s.info)
	s.setClose(conn.client, func() {
		// Say why before the link goes; best effort.
		s.mu.Lock()
		reason := s.reason
		s.mu.Unlock()
		// A console that does not read must not hold the shutdown up.
		_ = conn.c.SetWriteDeadline(time.Now().Add(time.Second))
		_ = p.notifyPeer(context.Background(), notifyEnding, endingParams{Reason: reason})
		p.close()
	})
	err = p.run(ctx)
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// consoleHandler answers a console's requests with the real jobs table.
type consoleHandler struct {
	s      *server
	hello  Hello
	owner  string
	client int // the console's client ID
}

func (h consoleHandler) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	t := h.s.table
	decode := func(v any) error {
		if err := json.Unmarshal(params, v); err != nil {
			return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("bad %s params: %v", method, err)}
		}
		return nil
	}
	switch method {
	case methodList:
		return listResult{Jobs: t.List(), Dropped: t.Dropped()}, nil
	case methodRead:
		var p readParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return t.Read(p.ID, p.Req)
	case methodResolve:
		var p resolveParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		id, err := t.Resolve(p.Sel)
		return resolveResult{ID: id}, err
	case methodReadN:
		var p readManyParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return readManyResult{Pages: t.ReadMany(p.Reads)}, nil
	case methodFrame:
		var p readManyParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		jobs, pages := t.Frame(p.Reads)
		return frameResult{Jobs: jobs, Pages: pages}, nil
	case methodResize:
		var p resizeParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return struct{}{}, h.s.resize(h.client, p.ID, p.Size)
	case methodInfo:
		return h.s.info(), nil
	}
	return h.change(ctx, method, decode)
}

// change answers the methods that change jobs: start, status (which may
// wait), kill, restart, remove and clear; any other method is
// CodeMethodNotFound.
func (h consoleHandler) change(ctx context.Context, method string, decode func(any) error) (any, error) {
	t := h.s.table
	switch method {
	case methodStart:
		var p startParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		spec := h.spec(p.Spec)
		rep, err := t.Start(ctx, spec)
		if err == nil && !spec.Size.IsZero() {
			// The size it started at is this console's wish for it, as
			// a resize would be: when another console that shows it
			// smaller leaves, it grows back to this one's pane.
			h.s.sizes.set(h.client, rep.Job.ID, spec.Size)
		}
		return rep, err
	case methodStatus:
		var p statusParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return t.Status(ctx, p.ID, p.Opts)
	case methodKill:
		var p killParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		if p.Opts.By == "" {
			p.Opts.By = h.owner
		}
		return t.Kill(ctx, p.ID, p.Opts)
	case methodRestart:
		var p restartParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		if p.Opts.By == "" {
			p.Opts.By = h.owner
		}
		return t.Restart(ctx, p.ID, p.Opts)
	case methodRemove:
		var p removeParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		return struct{}{}, t.Remove(p.ID)
	case methodClear:
		return clearResult{Removed: t.Clear()}, nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no method " + method + " on a console connection"}
}

// spec completes a console's spec with the console's own directory and
// environment (a job runs where and with what its client runs, never with
// the session process's), and its owner.
func (h consoleHandler) spec(spec model.Spec) model.Spec {
	dir := string(h.hello.Dir)
	switch {
	case spec.Dir == "":
		spec.Dir = dir
	case !filepath.IsAbs(spec.Dir) && dir != "":
		spec.Dir = filepath.Join(dir, spec.Dir)
	}
	if spec.Env == nil {
		spec.Env = envStrings(h.hello.Env)
	}
	if spec.Owner == "" {
		spec.Owner = h.owner
	}
	if spec.Grace == nil {
		spec.Grace = h.hello.Grace
	}
	return spec
}
