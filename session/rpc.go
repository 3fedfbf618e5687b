package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrLinkLost is wrapped by every error of a call whose connection to the
// session ended (the session stopped or was killed, or the client closed
// it).
var ErrLinkLost = errors.New("lost the link to the jobdeck session")

// maxInFlight bounds the calls one connection may have running at once in
// its peer; the next one is read when one of them returns, so a client
// that floods requests (or stops reading answers) only waits for itself.
// It also bounds what such a client can make the session hold: an answer
// is at most one ring's page (4 MiB of text, 5.4 MB as JSON), so at most
// about 90 MB per misbehaving connection. A console needs a fetch, up to
// eight kills (quitting stops every job at once), a report and a start.
const maxInFlight = 16

// callHandler serves one incoming call: the result is marshalled as the
// answer's result; an error becomes the answer's error (a *jsonrpc.Error is
// sent as it is, anything else as codeCore with the message and the
// error's stable code, see wireError).
type callHandler func(ctx context.Context, method string, params json.RawMessage) (any, error)

// notifyHandler takes one incoming notification. It runs on the read loop:
// it must not block.
type notifyHandler func(method string, params json.RawMessage)

// peer is one end of a JSON-RPC 2.0 connection whose framing is the
// go-sdk's (mcp.Connection: newline-delimited JSON, from IOTransport): it
// sends calls and notifications and serves the other end's. The session
// and its console clients both use it.
type peer struct {
	conn   mcp.Connection
	handle callHandler
	notify notifyHandler

	mu      sync.Mutex
	pending map[int64]chan *jsonrpc.Response
	next    int64
	err     error // why the connection ended, once it did

	done chan struct{} // closed when the read loop ends
	sem  chan struct{}
	wg   sync.WaitGroup // incoming calls being served
}

// newPeer returns a peer over conn; call run to read from it.
func newPeer(conn mcp.Connection, handle callHandler, notify notifyHandler) *peer {
	return &peer{
		conn: conn, handle: handle, notify: notify,
		pending: map[int64]chan *jsonrpc.Response{},
		done:    make(chan struct{}),
		sem:     make(chan struct{}, maxInFlight),
	}
}

// run reads messages until the connection ends or ctx ends, serving calls
// (each in its own goroutine, at most maxInFlight at once) and delivering
// answers to waiting calls. It returns why it stopped; pending and later
// calls fail with ErrLinkLost. Served calls get a context that ends with
// run.
func (p *peer) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var err error
	for {
		var msg jsonrpc.Message
		msg, err = p.conn.Read(ctx)
		if err != nil {
			break
		}
		switch m := msg.(type) {
		case *jsonrpc.Response:
			p.answer(m)
		case *jsonrpc.Request:
			if !m.IsCall() {
				if p.notify != nil {
					p.notify(m.Method, m.Params)
				}
				continue
			}
			select {
			case p.sem <- struct{}{}:
			case <-ctx.Done():
			}
			p.wg.Add(1)
			go p.serve(ctx, m)
		}
	}
	p.fail(err)
	cancel()
	p.wg.Wait()
	return err
}

// serve answers one call.
func (p *peer) serve(ctx context.Context, req *jsonrpc.Request) {
	defer p.wg.Done()
	defer func() { <-p.sem }()
	var res any
	var err error
	if p.handle == nil {
		err = &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found: " + req.Method}
	} else {
		res, err = p.handle(ctx, req.Method, req.Params)
	}
	resp := &jsonrpc.Response{ID: req.ID}
	if err != nil {
		resp.Error = wireError(err)
	} else if resp.Result, err = json.Marshal(res); err != nil {
		resp.Result, resp.Error = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "encode the result: " + err.Error()}
	}
	// A write fails only when the connection is gone; run sees that too.
	_ = p.conn.Write(context.Background(), resp)
}

// answer hands a response to the call waiting for it.
func (p *peer) answer(r *jsonrpc.Response) {
	id, ok := r.ID.Raw().(int64)
	if !ok {
		return
	}
	p.mu.Lock()
	ch := p.pending[id]
	delete(p.pending, id)
	p.mu.Unlock()
	if ch != nil {
		ch <- r
	}
}

// fail ends every pending call with the reason the connection ended.
func (p *peer) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return
	}
	if err == nil {
		err = errors.New("connection closed")
	}
	p.err = fmt.Errorf("%w: %v", ErrLinkLost, err)
	for id, ch := range p.pending {
		delete(p.pending, id)
		close(ch)
	}
	close(p.done)
}

// call sends a request and waits for its answer, decoding the result into
// result (unless nil). Errors: ctx's, ErrLinkLost (wrapped), or the other
// end's error (see remoteError).
func (p *peer) call(ctx context.Context, method string, params, result any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("encode %s params: %w", method, err)
	}
	ch := make(chan *jsonrpc.Response, 1)
	p.mu.Lock()
	if p.err != nil {
		err := p.err
		p.mu.Unlock()
		return err
	}
	p.next++
	id := p.next
	p.pending[id] = ch
	p.mu.Unlock()
	if err := p.conn.Write(ctx, &jsonrpc.Request{ID: mustID(id), Method: method, Params: raw}); err != nil {
		p.forget(id)
		p.fail(err)
		return p.linkErr()
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return p.linkErr()
		}
		if r.Error != nil {
			return fromWire(r.Error)
		}
		if result == nil {
			return nil
		}
		if err := json.Unmarshal(r.Result, result); err != nil {
			return fmt.Errorf("decode the %s result: %w", method, err)
		}
		return nil
	case <-ctx.Done():
		p.forget(id)
		return ctx.Err()
	}
}

func (p *peer) forget(id int64) {
	p.mu.Lock()
	delete(p.pending, id)
	p.mu.Unlock()
}

// linkErr is why the connection ended.
func (p *peer) linkErr() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		return ErrLinkLost
	}
	return p.err
}

// notifyPeer sends a notification.
func (p *peer) notifyPeer(ctx context.Context, method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return p.conn.Write(ctx, &jsonrpc.Request{Method: method, Params: raw})
}

// close ends the connection; run returns.
func (p *peer) close() { _ = p.conn.Close() }

func mustID(n int64) jsonrpc.ID {
	id, err := jsonrpc.MakeID(float64(n))
	if err != nil {
		panic(err) // float64 is always a valid ID type
	}
	return id
}
