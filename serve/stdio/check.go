package stdio

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// maxDepth is the deepest nesting of objects and arrays a message may
// have, counting the message itself: the SDK's own decoder limit. The
// SDK's stream reader accepts up to 10,000, so a line in between would
// pass the reader and then end the session in the decoder.
const maxDepth = 1000

// maxIntID is the largest integer id magnitude passed on: the SDK keeps
// numeric ids as float64 on the way in, so larger ones would come back
// as another number.
const maxIntID = 1<<53 - 1

// frameKind is what a line that may pass is.
type frameKind uint8

const (
	frameCall         frameKind = iota + 1 // a request with an id: it gets a response
	frameNotification                      // a request without an id
	frameResponse                          // a response to one of the server's requests
)

// frame is what checkFrame learnt of a line that may pass.
type frame struct {
	kind frameKind
	// id is the canonical form of the id (see idKey); empty for a
	// notification.
	id string
}

// frameError is why a line is refused: a JSON-RPC error code and a
// message that says what to send instead.
type frameError struct {
	code int
	msg  string
}

// Refusals. Each message says what a client should do instead.
var (
	errNotJSON     = &frameError{codeParseError, "parse error: the line is not JSON; send one JSON-RPC 2.0 message per line"}
	errNotUTF8     = &frameError{codeParseError, "parse error: the line is not valid UTF-8"}
	errTooDeep     = &frameError{codeInvalidRequest, "invalid request: the message nests objects or arrays more than 1000 levels deep"}
	errNotObject   = &frameError{codeInvalidRequest, `invalid request: not a JSON-RPC 2.0 message; send {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{...}}`}
	errVersion     = &frameError{codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0" (member names are case-sensitive)`}
	errMember      = &frameError{codeInvalidRequest, `invalid request: unknown member; a JSON-RPC 2.0 message has only "jsonrpc", "id", "method", "params", "result" and "error" (names are case-sensitive)`}
	errDuplicate   = &frameError{codeInvalidRequest, "invalid request: a member appears twice"}
	errID          = &frameError{codeInvalidRequest, "invalid request: id must be a string or an integer of at most 2^53-1"}
	errMethod      = &frameError{codeInvalidRequest, "invalid request: method must be a non-empty string"}
	errParams      = &frameError{codeInvalidRequest, "invalid request: params must be an object"}
	errShape       = &frameError{codeInvalidRequest, `invalid request: a request has "method" (and maybe "id", "params"); a response has "id" and one of "result" or "error"`}
	errErrorObject = &frameError{codeInvalidRequest, `invalid request: error must be {"code": <integer>, "message": "<text>", "data"?: ...}`}
	errBatch       = &frameError{codeInvalidRequest, "invalid request: batches are not supported; send one JSON-RPC message per line"}
	errEmptyBatch  = &frameError{codeInvalidRequest, "invalid request: empty batch; send one JSON-RPC message per line"}
	errTooLong     = &frameError{codeInvalidRequest, "message dropped: it is longer than 16 MiB; send commands over 1 MiB as a script file"}
	errIDInUse     = &frameError{codeInvalidRequest, "invalid request: that id belongs to a request still running; give each request its own id"}
)

// checkFrame decides whether one line (without its newline) may go on to
// the SDK. It passes exactly the single JSON-RPC 2.0 objects that the
// SDK decodes without ending the session: valid UTF-8 JSON, at most
// maxDepth deep, with only the members JSON-RPC defines, spelled in
// their case, each once, of the right types. For a refused line it
// returns the error and the id to answer with (nil: null). A batch is
// refused as a whole; then ids holds each element's id (nil entries for
// elements without a usable id).
func checkFrame(line []byte) (f frame, ferr *frameError, id json.RawMessage, ids []json.RawMessage) {
	t := trimJSON(line)
	sc := scanner{b: t}
	if ferr := sc.document(); ferr != nil {
		return frame{}, ferr, nil, nil
	}
	switch t[0] {
	case '{':
		f, ferr, id = checkMessage(t)
		return f, ferr, id, nil
	case '[':
		return frame{}, errBatch, nil, batchIDs(t)
	}
	return frame{}, errNotObject, nil, nil
}

// members are the top-level members of a message: their raw values, nil
// when absent.
type members struct {
	jsonrpc, id, method, params, result, err []byte
}

// checkMessage checks an object that is valid JSON (see scanner.document).
func checkMessage(t []byte) (frame, *frameError, json.RawMessage) {
	var m members
	var bad *frameError
	ok := eachMember(t, func(name, value []byte) bool {
		var slot *[]byte
		switch string(name) {
		case `"jsonrpc"`:
			slot = &m.jsonrpc
		case `"id"`:
			slot = &m.id
		case `"method"`:
			slot = &m.method
		case `"params"`:
			slot = &m.params
		case `"result"`:
			slot = &m.result
		case `"error"`:
			slot = &m.err
		default:
			// Escaped spellings of a known name are unknown here: the
			// SDK's decoder would read them as the name itself.
			bad = errMember
			return true
		}
		if *slot != nil {
			bad = errDuplicate
			return false
		}
		*slot = value
		return true
	})
	id, idOK := idKey(m.id)
	var echo json.RawMessage
	if idOK && id != "" {
		echo = m.id
	}
	switch {
	case !ok || bad == errDuplicate:
		return frame{}, errDuplicate, nil // which id counts is unclear
	case bad != nil:
		return frame{}, bad, echo
	case string(m.jsonrpc) != `"2.0"`:
		return frame{}, errVersion, echo
	case !idOK:
		return frame{}, errID, nil
	}
	if m.method != nil {
		switch {
		case m.result != nil || m.err != nil:
			return frame{}, errShape, echo
		case m.method[0] != '"' || len(m.method) == 2:
			return frame{}, errMethod, echo
		case m.params != nil && m.params[0] != '{' && string(m.params) != "null":
			return frame{}, errParams, echo
		case m.id == nil:
			return frame{kind: frameNotification}, nil, nil
		case id == "":
			// The SDK takes a null id for a notification and would never
			// answer what the client meant as a call.
			return frame{}, errID, nil
		}
		return frame{kind: frameCall, id: id}, nil, nil
	}
	switch {
	case id == "" || m.params != nil || (m.result == nil) == (m.err == nil):
		return frame{}, errShape, echo
	case m.err != nil && !errorObject(m.err):
		return frame{}, errErrorObject, echo
	}
	return frame{kind: frameResponse, id: id}, nil, nil
}

// errorObject reports whether raw is a JSON-RPC error object: "code" an
// integer, "message" a string, "data" anything, nothing else.
func errorObject(raw []byte) bool {
	if raw[0] != '{' {
		return false
	}
	var code, msg, data bool
	ok := eachMember(raw, func(name, value []byte) bool {
		var seen *bool
		good := true
		switch string(name) {
		case `"code"`:
			seen, good = &code, isInteger(value, 1<<62)
		case `"message"`:
			seen, good = &msg, value[0] == '"'
		case `"data"`:
			seen = &data
		default:
			return false
		}
		if *seen || !good {
			return false
		}
		*seen = true
		return true
	})
	return ok && code && msg
}

// idKey is the canonical form of a message's id, under which requests
// and their responses meet: "s" and the decoded string, or "n" and the
// integer in decimal; "" for an absent or null id. ok is false for an id
// of any other kind.
func idKey(raw []byte) (key string, ok bool) {
	switch {
	case raw == nil || string(raw) == "null":
		return "", true
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s" + s, true
	case isInteger(raw, maxIntID):
		n, _ := strconv.ParseInt(string(raw), 10, 64)
		return "n" + strconv.FormatInt(n, 10), true
	}
	return "", false
}

// isInteger reports whether raw is a JSON number without fraction or
// exponent whose magnitude is at most limit.
func isInteger(raw []byte, limit int64) bool {
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 19 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	n, err := strconv.ParseInt(string(digits), 10, 64)
	return err == nil && n <= limit
}

// batchIDs returns the usable id of each element of a batch (valid JSON),
// nil for elements without one. An empty batch gives an empty, non-nil
// slice.
func batchIDs(t []byte) []json.RawMessage {
	ids := []json.RawMessage{}
	sc := scanner{b: t, i: 1}
	for {
		sc.space()
		if sc.i >= len(sc.b) || sc.b[sc.i] == ']' {
			return ids
		}
		start := sc.i
		sc.skip()
		var id json.RawMessage
		if elem := sc.b[start:sc.i]; elem[0] == '{' {
			eachMember(elem, func(name, value []byte) bool {
				if string(name) == `"id"` {
					if k, ok := idKey(value); ok && k != "" {
						id = value
					}
					return false
				}
				return true
			})
		}
		ids = append(ids, id)
		sc.space()
		if sc.i < len(sc.b) && sc.b[sc.i] == ',' {
			sc.i++
		}
	}
}

// eachMember calls fn with each member of the object t: the name as
// written, quotes included, and the raw value. It stops, returning false,
// when fn returns false or t turns out not to be an object (t need not
// be valid JSON: it never reads past the end).
func eachMember(t []byte, fn func(name, value []byte) bool) bool {
	sc := scanner{b: t, i: 1}
	for {
		sc.space()
		if sc.i >= len(sc.b) || sc.b[sc.i] != '"' {
			return sc.i < len(sc.b) && sc.b[sc.i] == '}'
		}
		start := sc.i
		sc.skip()
		name := sc.b[start:sc.i]
		sc.space()
		if sc.i >= len(sc.b) || sc.b[sc.i] != ':' {
			return false
		}
		sc.i++
		sc.space()
		start = sc.i
		sc.skip()
		if sc.i == start || !fn(name, sc.b[start:sc.i]) {
			return false
		}
		sc.space()
		if sc.i < len(sc.b) && sc.b[sc.i] == ',' {
			sc.i++
		}
	}
}

// scanner walks JSON text. document validates; the other methods assume
// text that document accepted.
type scanner struct {
	b     []byte
	i     int
	depth int
}

// document checks that b is exactly one JSON value (RFC 8259) in valid
// UTF-8, nested at most maxDepth deep.
func (s *scanner) document() *frameError {
	s.space()
	if s.i == len(s.b) {
		return errNotJSON
	}
	if ferr := s.value(); ferr != nil {
		return ferr
	}
	s.space()
	if s.i != len(s.b) {
		return errNotJSON
	}
	return nil
}

// space skips JSON whitespace.
func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// trimJSON cuts JSON whitespace (space, tab, CR, LF) from both ends of b;
// unlike bytes.TrimSpace it leaves other Unicode spaces, which JSON does
// not allow there.
func trimJSON(b []byte) []byte {
	return bytes.Trim(b, " \t\r\n")
}
