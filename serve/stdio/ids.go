package stdio

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// The ids of newline-delimited JSON-RPC 2.0 messages, for a relay that
// passes them through whole and must know which calls are unanswered
// (jobdeck's --serve relay answers those itself when its session ends
// under it). Keys are the canonical ids: 1, 1.0 and "1" meet as the
// server's line filter meets them.

// CallKey returns the key and raw id of line when it is one JSON-RPC call
// (an object with "method" and a non-null id); ok is false for anything
// else (a notification, a response, a batch, not JSON).
func CallKey(line []byte) (key string, id json.RawMessage, ok bool) {
	raw, method, _ := idMembers(line)
	if !method || raw == nil {
		return "", nil, false
	}
	key, ok = idKey(raw)
	if !ok || key == "" {
		return "", nil, false
	}
	return key, json.RawMessage(append([]byte(nil), raw...)), true
}

// ResponseKey returns the key of line's id when it is one JSON-RPC
// response (an object with "id" and "result" or "error"); it reads only
// as far as it must, so a prefix of a large response holding its first
// members is enough.
func ResponseKey(line []byte) (string, bool) { return responseKey(line) }

// ErrorReply is a JSON-RPC error response to id with code and message,
// without newline.
func ErrorReply(id json.RawMessage, code int, message string) []byte {
	return errorReply(id, &frameError{code: code, msg: message})
}

// CodeServerExiting is the JSON-RPC error code of a call that the server
// will not answer because it is exiting (a server error, JSON-RPC 2.0
// §5.1: -32000 to -32099; the relay uses the same for its own).
const CodeServerExiting = -32001

// AnswerPending answers every call passed on and not answered yet with
// a JSON-RPC error (code, message), in id order, and forgets them; it
// returns how many it answered.
func (f *Filter) AnswerPending(code int, message string) int {
	f.mu.Lock()
	keys := make([]string, 0, len(f.pending))
	for k := range f.pending {
		keys = append(keys, k)
	}
	f.pending = map[string]bool{}
	f.gaveUp = true
	f.mu.Unlock()
	slices.Sort(keys)
	for _, k := range keys {
		_, _ = f.write(append(errorReply(keyID(k), &frameError{code: code, msg: message}), '\n'))
	}
	return len(keys)
}

// hasGivenUp tells whether AnswerPending ran.
func (f *Filter) hasGivenUp() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gaveUp
}

// keyID is the JSON id that idKey made key from.
func keyID(key string) json.RawMessage {
	if n, ok := strings.CutPrefix(key, "n"); ok {
		return json.RawMessage(n)
	}
	raw, _ := json.Marshal(strings.TrimPrefix(key, "s"))
	return raw
}

// responseKey returns the id (idKey) of a response the SDK wrote: one
// JSON object with "id" and "result" or "error", no "method". The SDK
// writes "jsonrpc", "id", then the rest, so this reads only the first
// members of a large result.
func responseKey(p []byte) (string, bool) {
	id, method, response := idMembers(p)
	if method || !response || id == nil {
		return "", false
	}
	key, ok := idKey(id)
	return key, ok && key != ""
}

// idMembers scans the top-level members of the object p (nothing for
// anything else) until it has its "id" and knows whether it is a call
// ("method") or a response ("result" or "error").
func idMembers(p []byte) (id []byte, method, response bool) {
	t := trimJSON(p)
	if len(t) == 0 || t[0] != '{' {
		return nil, false, false
	}
	eachMember(t, func(name, value []byte) bool {
		switch string(name) {
		case `"id"`:
			id = value
		case `"result"`, `"error"`:
			response = true
		case `"method"`:
			method = true
		}
		return id == nil || !(method || response)
	})
	return id, method, response
}

// errorReply is a JSON-RPC error response (without newline); a nil id is
// written as null.
func errorReply(id json.RawMessage, ferr *frameError) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	type wireError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   wireError       `json:"error"`
	}{"2.0", id, wireError{ferr.code, ferr.msg}})
	if err != nil {
		// Cannot happen with these types; keep the stream valid anyway.
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":"invalid message"}}`, ferr.code)
	}
	return b
}
