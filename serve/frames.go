package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// maxFrame is the longest input line (one JSON-RPC message) accepted on
// stdio: the SDK's own default limit.
const maxFrame = 16 << 20

// JSON-RPC 2.0 error codes (https://www.jsonrpc.org/specification#error_object).
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// lockedWriter serialises writes to the output, so that the SDK's
// messages and the frame filter's error replies never interleave. Each
// Write is one whole message.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Close does nothing: the caller owns the output.
func (l *lockedWriter) Close() error { return nil }

// filterFrames copies newline-delimited JSON-RPC from in to dst, line by
// line, until in ends (then it closes dst). The SDK ends the whole session
// on one line it cannot decode, and with it every job; so a line that is
// not JSON, not a JSON-RPC message, or longer than maxFrame is answered
// here with a JSON-RPC error on out and dropped, and the session goes on.
func filterFrames(in io.Reader, dst *io.PipeWriter, out io.Writer) {
	r := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	for {
		var err error
		line, err = readFrame(r, line[:0])
		if len(bytes.TrimSpace(line)) > 0 || errors.Is(err, errFrameTooLong) {
			if reply := checkFrame(line, err); reply != nil {
				if _, werr := out.Write(reply); werr != nil {
					dst.CloseWithError(werr)
					return
				}
			} else if _, werr := dst.Write(append(line, '\n')); werr != nil {
				return // the session ended
			}
		}
		if err != nil && !errors.Is(err, errFrameTooLong) {
			dst.Close() // EOF (or a read error) ends the session
			return
		}
	}
}

// errFrameTooLong reports a line longer than maxFrame.
var errFrameTooLong = errors.New("message longer than 16 MiB")

// readFrame reads one line (without its newline) into buf. A line longer
// than maxFrame is skipped to its end and reported as errFrameTooLong.
func readFrame(r *bufio.Reader, buf []byte) ([]byte, error) {
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > maxFrame+1 {
				tooLong, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && !tooLong:
			return buf, err
		case err != nil:
			return nil, err
		case tooLong:
			return nil, errFrameTooLong
		}
		return bytes.TrimRight(buf, "\r\n"), nil
	}
}

// checkFrame returns the JSON-RPC error reply for a line that must not
// reach the SDK, or nil when the line may pass.
func checkFrame(line []byte, readErr error) []byte {
	if errors.Is(readErr, errFrameTooLong) {
		return errorReply(nil, codeInvalidRequest, "message dropped: it is longer than 16 MiB; send commands over 1 MiB as a script file")
	}
	t := bytes.TrimSpace(line)
	if !json.Valid(t) {
		return errorReply(nil, codeParseError, "parse error: the line is not JSON; send one JSON-RPC 2.0 message per line")
	}
	if t[0] == '[' {
		return nil // a batch: the SDK answers it
	}
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if t[0] != '{' || json.Unmarshal(t, &msg) != nil || msg.JSONRPC != "2.0" ||
		(msg.Method == nil && msg.Result == nil && msg.Error == nil) || (msg.Method != nil && *msg.Method == "") {
		return errorReply(validID(msg.ID), codeInvalidRequest, `invalid request: not a JSON-RPC 2.0 message; send {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{...}}`)
	}
	if len(msg.ID) > 0 && validID(msg.ID) == nil && !bytes.Equal(bytes.TrimSpace(msg.ID), []byte("null")) {
		return errorReply(nil, codeInvalidRequest, "invalid request: id must be a string or a number")
	}
	return nil
}

// validID returns id when it is a JSON string or number, else nil.
func validID(id json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(id)
	if len(t) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(t, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return t
	}
	return nil
}

// errorReply is a JSON-RPC error response line; a nil id is written as
// null.
func errorReply(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	if err != nil {
		// Cannot happen with these types; keep the stream valid anyway.
		return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":"invalid message"}}`+"\n", code))
	}
	return append(b, '\n')
}
