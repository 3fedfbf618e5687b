package testkit

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Raw lines a client of an MCP server over stdio sends.
const (
	LineInitialize  = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	LineInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// LinePing is a ping with the given id (JSON: `1`, `"a"`).
func LinePing(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`
}

// nested is a message whose params nest depth levels deep in all.
func nested(depth int) string {
	inner := depth - 2 // the message and params objects
	return `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":` + strings.Repeat("[", inner) + strings.Repeat("]", inner) + `}}`
}

// HostileLine is a line that ends the go-sdk's stdio session (and
// jobdeck with it) or that it would silently misread; the line filter
// (serve/stdio) answers it with an error of Code and ID (nil: null).
type HostileLine struct {
	Name, Line string
	Code       float64
	ID         any
	EndsSDK    bool // the bare SDK's session ends on it (a negative control)
}

// maxLine is serve/stdio.MaxLine, the longest line the filter passes on.
const maxLine = 16 << 20

// HostileLines are the lines the filter must answer and drop (made on
// demand: one is over 16 MiB).
func HostileLines() []HostileLine {
	return []HostileLine{
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, 1.0, true},
		{"depth 1001", nested(1001), -32600, nil, true},
		{"depth 5000", nested(5000), -32600, nil, true},
		{"depth 9999", nested(9999), -32600, nil, true},
		{"depth 10001", nested(10001), -32600, nil, true},
		{"depth 100000", nested(100000), -32600, nil, true},
		{"JSONRPC in capitals", `{"JSONRPC":"2.0","id":1,"method":"ping"}`, -32600, 1.0, true},
		{"Method in capitals", `{"jsonrpc":"2.0","id":2,"Method":"ping"}`, -32600, 2.0, false},
		{"ID in capitals", `{"jsonrpc":"2.0","ID":3,"method":"ping"}`, -32600, nil, false},
		{"unknown member", `{"jsonrpc":"2.0","id":4,"method":"ping","extra":true}`, -32600, 4.0, false},
		{"escaped member name", `{"jsonrpc":"2.0","\u0069d":5,"method":"ping"}`, -32600, nil, false},
		{"duplicate member", `{"jsonrpc":"2.0","id":6,"id":{},"method":"ping"}`, -32600, nil, true},
		{"response without id", `{"jsonrpc":"2.0","result":{}}`, -32600, nil, true},
		{"error not an object", `{"jsonrpc":"2.0","id":8,"error":5}`, -32600, 8.0, true},
		{"error without code", `{"jsonrpc":"2.0","id":9,"error":{"message":"x"}}`, -32600, 9.0, false},
		{"id 1e400", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, -32600, nil, true},
		{"id 1.5", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, nil, false},
		{"id over 2^53", `{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}`, -32600, nil, false},
		{"id null call", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, nil, false},
		{"method not a string", `{"jsonrpc":"2.0","id":10,"method":5}`, -32600, 10.0, true},
		{"params a string", `{"jsonrpc":"2.0","id":11,"method":"tools/list","params":"x"}`, -32600, 11.0, false},
		{"result and error", `{"jsonrpc":"2.0","id":12,"result":{},"error":{"code":1,"message":"m"}}`, -32600, 12.0, false},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"ping\",\"params\":{\"x\":\"\xff\"}}", -32700, nil, false},
		{"empty batch", `[]`, -32600, nil, true},
		{"not JSON", `hello`, -32700, nil, true},
		{"vertical tab before", "\v" + LinePing("17"), -32700, nil, true},
		{"two values", `{"jsonrpc":"2.0","id":14,"method":"ping"} {}`, -32700, nil, true},
		{"scalar", `42`, -32600, nil, true},
		{"wrong version", `{"jsonrpc":"1.0","id":15,"method":"ping"}`, -32600, 15.0, true},
		{"over 16 MiB", `{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"background","arguments":{"command":"` + strings.Repeat("x", maxLine) + `"}}}`, -32600, nil, false},
	}
}

// MessageProblem says what makes raw not a JSON-RPC 2.0 message, or "".
func MessageProblem(raw []byte) string {
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &msg); err != nil {
		return fmt.Sprintf("is not JSON (%v)", err)
	}
	if msg.JSONRPC != "2.0" || (msg.Method == "" && msg.Result == nil && msg.Error == nil) {
		return "is not a JSON-RPC 2.0 message"
	}
	return ""
}
