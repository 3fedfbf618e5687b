package serve

import "encoding/json"

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
