//go:build unix

package session

import (
	"encoding/json"
	"io"
	"sync"

	"github.com/jobdeck/jobdeck/serve/stdio"
)

// relayKeep bounds the bytes of one line a relay holds to read its id: a
// call or an answer longer than this passes untracked (the session's own
// line filter refuses lines over 16 MiB; answers are bounded by the
// result budget, far below).
const relayKeep = 16 << 20

// codeSessionGone is the JSON-RPC error code of a call the relay answers
// itself (the server-defined range of JSON-RPC 2.0, §5.1).
const codeSessionGone = -32001

// relayCalls are the calls the agent sent through a relay that the
// session has not answered yet, by canonical id (stdio.CallKey).
type relayCalls struct {
	mu      sync.Mutex
	pending map[string]json.RawMessage
	order   []string
}

func newRelayCalls() *relayCalls { return &relayCalls{pending: map[string]json.RawMessage{}} }

// copyCalls copies the agent's lines to the session, noting each call.
func (c *relayCalls) copyCalls(dst io.Writer, src io.Reader) {
	_ = eachLine(src, relayKeep, func(line []byte) {
		if key, id, ok := stdio.CallKey(line); ok {
			c.mu.Lock()
			if _, dup := c.pending[key]; !dup {
				c.order = append(c.order, key)
			}
			if len(c.order) > 2*len(c.pending)+64 {
				c.compact() // answered calls' keys: bounded by those pending
			}
			c.pending[key] = id
			c.mu.Unlock()
		}
	}, func(chunk []byte) error {
		_, err := dst.Write(chunk)
		return err
	})
}

// copyAnswers copies the session's lines to the agent, striking each call
// answered. It returns the read error that ended it (nil at EOF).
func (c *relayCalls) copyAnswers(dst io.Writer, src io.Reader) error {
	var werr error
	rerr := eachLine(src, relayKeep, func(line []byte) {
		if key, ok := stdio.ResponseKey(line); ok {
			c.mu.Lock()
			delete(c.pending, key)
			c.mu.Unlock()
		}
	}, func(chunk []byte) error {
		if _, err := dst.Write(chunk); err != nil {
			werr = err
			return err
		}
		return nil
	})
	if werr != nil {
		return nil // the agent stopped reading: nothing to tell it
	}
	return rerr
}

// answerAll answers every pending call with a JSON-RPC error saying why,
// oldest first. Only after copyAnswers returned.
func (c *relayCalls) answerAll(dst io.Writer, why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, key := range c.order {
		if id, ok := c.pending[key]; ok {
			if _, err := dst.Write(append(stdio.ErrorReply(id, codeSessionGone, why), '\n')); err != nil {
				return
			}
			delete(c.pending, key)
		}
	}
	c.order = c.order[:0]
}

// compact drops the keys of answered calls from c.order. c.mu held.
func (c *relayCalls) compact() {
	kept := c.order[:0]
	seen := map[string]bool{}
	for _, key := range c.order {
		if _, ok := c.pending[key]; ok && !seen[key] {
			seen[key] = true
			kept = append(kept, key)
		}
	}
	c.order = kept
}
