package session

import (
	"encoding/json"
	"errors"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// codeCore is the JSON-RPC error code of an error of the jobs core; the
// error's data carries its stable code (model's sentinels), so that the
// client's errors.Is works as it would in process.
const codeCore = -32010

// errorData is the data of a codeCore error.
type errorData struct {
	Code string `json:"code"`
}

// wireError converts a handler's error for the wire.
func wireError(err error) *jsonrpc.Error {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we
	}
	data, _ := json.Marshal(errorData{Code: model.ErrorCode(err)})
	return &jsonrpc.Error{Code: codeCore, Message: err.Error(), Data: data}
}

// remoteError is an error the session answered with: its message as the
// session wrote it, and the sentinel its code names (nil for none).
type remoteError struct {
	msg      string
	sentinel error
}

func (e *remoteError) Error() string { return e.msg }
func (e *remoteError) Unwrap() error { return e.sentinel }

// fromWire converts an error answer back: errors of the core come back
// wrapping the same model sentinel.
func fromWire(err error) error {
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		return err
	}
	if we.Code != codeCore {
		return &remoteError{msg: "session: " + we.Message}
	}
	var d errorData
	_ = json.Unmarshal(we.Data, &d)
	return &remoteError{msg: we.Message, sentinel: model.CodeError(d.Code)}
}
