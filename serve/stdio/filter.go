package stdio

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"
)

// MaxLine is the longest input line (one JSON-RPC message) accepted on
// stdio: the SDK's own default limit.
const MaxLine = 16 << 20

// DrainTimeout is how long, after EOF on the input, requests already read
// may still run before their waits are cut short (they are answered
// either way).
const DrainTimeout = 30 * time.Second

// maxUnanswered bounds the calls of one peer that are passed on and not
// yet answered: the filter passes the next call on only when fewer are
// (the lines read meanwhile wait in a bounded queue: lineQueue). A peer
// that sends requests and never reads the answers (or reads them slowly)
// therefore makes the server hold at most this many answers (each at most
// a result's byte budget), and waits for itself alone; the SDK would
// otherwise start a handler for every line it reads.
const maxUnanswered = 16

// JSON-RPC 2.0 error codes (https://www.jsonrpc.org/specification#error_object).
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// Filter stands between a peer speaking newline-delimited JSON-RPC
// (stdin/stdout, a socket: any reader and writer) and the SDK's
// IOTransport. The SDK ends the whole session on one line it cannot
// decode, and jobdeck with it (modelcontextprotocol/go-sdk#1209); so every
// line goes through checkFrame, and a line that would not pass safely is
// answered here with a JSON-RPC error and dropped, and the session goes
// on.
//
// It also keeps the calls it passed on until the SDK has answered them:
// at EOF on the input it holds the EOF back until every call read so far
// is answered (the SDK, told of the EOF at once, cancels what is still
// running and drops those answers: modelcontextprotocol/go-sdk#1061).
//
// Every write to the output, the SDK's and the filter's own, is one
// whole line under one lock, so lines never interleave.
type Filter struct {
	wmu sync.Mutex
	out io.Writer

	mu      sync.Mutex
	pending map[string]bool // ids (idKey) of calls passed on and not yet answered
	unsent  int             // calls passed on whose answer is not yet written out
	answers int             // answers written out, ever (afterEOF's progress)
	retired chan struct{}   // 1-buffered: an answer was written
	gaveUp  bool            // AnswerPending answered what was left: later answers are dropped
}

// Open puts a Filter between a peer that speaks newline-delimited
// JSON-RPC 2.0 (in, out) and an endpoint that reads r and writes w, one
// whole message per Write (the go-sdk's IOTransport does both). A line
// that the endpoint could not take safely never reaches it: the filter
// answers it with a JSON-RPC error and the peer's session goes on. At EOF
// on in, r ends once every call already read has been answered; those
// still running after DrainTimeout are cut short with cutWaits. f stays
// for AnswerPending.
func Open(ctx context.Context, in io.Reader, out io.Writer, cutWaits func()) (f *Filter, r io.ReadCloser, w io.WriteCloser) {
	f = &Filter{out: out, pending: map[string]bool{}, retired: make(chan struct{}, 1)}
	pr, pw := io.Pipe()
	go f.copy(ctx, in, pw, cutWaits)
	return f, pr, sdkWriter{f}
}

// write writes one whole line to the output.
func (f *Filter) write(p []byte) (int, error) {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	return f.out.Write(p)
}

// sdkWriter is the output as the SDK sees it: the IOTransport writes each
// message as one Write of one line. A response among them answers a
// pending call.
type sdkWriter struct{ f *Filter }

func (w sdkWriter) Write(p []byte) (int, error) {
	key, ok := responseKey(p)
	answers := ok && w.f.answering(key)
	if ok && !answers && w.f.hasGivenUp() {
		// AnswerPending already answered it: one answer per call.
		return len(p), nil
	}
	n, err := w.f.write(p)
	if answers {
		// Counted even if the write failed: that answer will never
		// arrive, and nothing is left to wait for.
		w.f.sent()
	}
	return n, err
}

// Close does nothing: the caller owns the output.
func (sdkWriter) Close() error { return nil }

// answering frees a pending call's id as its answer is about to be
// written (the client may reuse the id as soon as it reads the answer),
// and reports whether it was pending.
func (f *Filter) answering(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.pending[key] {
		return false
	}
	delete(f.pending, key)
	return true
}

// sent counts an answer written out.
func (f *Filter) sent() {
	f.mu.Lock()
	f.unsent--
	f.answers++
	f.mu.Unlock()
	select {
	case f.retired <- struct{}{}:
	default:
	}
}

// cancelled frees the room of a call the client cancels
// (notifications/cancelled with its requestId): the spec says a
// cancelled request gets no answer, so none may be waited for. If an
// answer comes anyway, it is no longer pending and counts nothing.
func (f *Filter) cancelled(line []byte) {
	var n struct {
		Method string `json:"method"`
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &n) != nil || n.Method != "notifications/cancelled" {
		return
	}
	if key, ok := idKey(trimJSON(n.Params.RequestID)); ok && key != "" && f.answering(key) {
		f.sent()
	}
}

// room waits until fewer than maxUnanswered calls are unanswered; false
// when ctx ended first.
func (f *Filter) room(ctx context.Context) bool {
	for {
		f.mu.Lock()
		n := f.unsent
		f.mu.Unlock()
		if n < maxUnanswered {
			return true
		}
		select {
		case <-f.retired:
		case <-ctx.Done():
			return false
		}
	}
}

// hasRoom reports whether a call passed on now would not wait for room.
func (f *Filter) hasRoom() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.unsent < maxUnanswered
}

// idle reports whether every call passed on has been answered.
func (f *Filter) idle() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.unsent == 0
}

// copy passes the lines of in to dst until in ends, then, once the calls
// read are answered (see drain), closes dst. Lines are read ahead into a
// bounded queue (lineQueue) while calls wait for room, so the end of the
// input is seen, and the drain rule applies, however many calls are held
// (see afterEOF). It returns early when the session stops reading dst.
func (f *Filter) copy(ctx context.Context, in io.Reader, dst *io.PipeWriter, cutWaits func()) {
	q := newLineQueue()
	stop := make(chan struct{})
	defer close(stop)
	giveUp, cancel := f.afterEOF(ctx, q.ended, cutWaits)
	defer cancel()
	passOn := func(it queued) bool {
		var readErr error
		if it.tooLong {
			readErr = errFrameTooLong
		}
		return f.pass(giveUp, it.line, readErr, dst)
	}
	q.direct, q.hasRoom = passOn, f.hasRoom
	go q.fill(in, stop)
	for {
		it, ok := q.next(giveUp)
		if !ok {
			break
		}
		alive := passOn(it)
		q.passed()
		if !alive {
			return
		}
	}
	q.mu.Lock()
	failed := q.failed
	q.mu.Unlock()
	if failed {
		return // the session stopped reading
	}
	// EOF (or a read error) ends the session, once what was asked is
	// answered.
	f.drain(giveUp)
	dst.Close()
}

// pass checks one line and hands it to dst or answers it. It returns
// false when dst is closed (the session ended).
func (f *Filter) pass(ctx context.Context, line []byte, readErr error, dst *io.PipeWriter) bool {
	if errors.Is(readErr, errFrameTooLong) {
		return f.refuse(errTooLong, nil, dst)
	}
	fr, ferr, id, ids := checkFrame(line)
	if ferr != nil {
		if ids != nil {
			return f.refuseBatch(ferr, ids, dst)
		}
		return f.refuse(ferr, id, dst)
	}
	if fr.kind == frameNotification {
		f.cancelled(line)
	}
	if fr.kind == frameCall {
		// A call waits for room; a notification (a cancel among them) or
		// an answer never does, so a client with 16 calls running can
		// still cancel one.
		if !f.room(ctx) {
			dst.Close()
			return false
		}
		f.mu.Lock()
		inUse := f.pending[fr.id]
		if !inUse {
			f.pending[fr.id] = true
			f.unsent++
		}
		f.mu.Unlock()
		if inUse {
			// Answered with a null id, as the SDK would: the error must
			// not look like the running request's answer.
			return f.refuse(errIDInUse, nil, dst)
		}
	}
	if _, err := dst.Write(append(trimJSON(line), '\n')); err != nil {
		if fr.kind == frameCall && f.answering(fr.id) {
			f.sent()
		}
		return false
	}
	return true
}

// refuse answers a line with a JSON-RPC error.
func (f *Filter) refuse(ferr *frameError, id json.RawMessage, dst *io.PipeWriter) bool {
	if _, err := f.write(append(errorReply(id, ferr), '\n')); err != nil {
		dst.CloseWithError(err)
		return false
	}
	return true
}

// refuseBatch answers a batch with one error per element, as an array;
// an empty batch gets one error.
func (f *Filter) refuseBatch(ferr *frameError, ids []json.RawMessage, dst *io.PipeWriter) bool {
	if len(ids) == 0 {
		return f.refuse(errEmptyBatch, nil, dst)
	}
	reply := []byte{'['}
	for i, id := range ids {
		if i > 0 {
			reply = append(reply, ',')
		}
		reply = append(reply, errorReply(id, ferr)...)
	}
	reply = append(reply, ']', '\n')
	if _, err := f.write(reply); err != nil {
		dst.CloseWithError(err)
		return false
	}
	return true
}

// drain returns once every call passed on is answered, or when ctx (the
// give-up of afterEOF) ends.
func (f *Filter) drain(ctx context.Context) {
	for !f.idle() {
		select {
		case <-f.retired:
		case <-ctx.Done():
			return
		}
	}
}
