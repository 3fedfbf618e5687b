package serve

import (
	"context"
	"reflect"
	"sync"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientNamer is a receiving middleware that tells onClient the client's
// name (as ShownClient shows it) once: the first request that carries it (an initialize names its
// client; under protocol 2026-07-28 every request does, in _meta).
func clientNamer(onClient func(name string)) mcp.Middleware {
	var once sync.Once
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if name := requestClient(req); name != "" {
				once.Do(func() { onClient(ShownClient(name)) })
			}
			return next(ctx, method, req)
		}
	}
}

// requestClient is the client name a request carries, or "".
func requestClient(req mcp.Request) string {
	if init, ok := req.(*mcp.InitializeRequest); ok && init.Params != nil && init.Params.ClientInfo != nil {
		return init.Params.ClientInfo.Name
	}
	if name, ok := metaName(req.GetParams()); ok {
		return name
	}
	if r, ok := req.(interface{ ClientInfo() *mcp.Implementation }); ok {
		if info := r.ClientInfo(); info != nil {
			return info.Name
		}
	}
	return ""
}

// metaName is the client's name in the _meta of a request's params
// (mcp.MetaKeyClientInfo, as a client sends it under protocol
// 2026-07-28), read in place; false when it is not there as decoded JSON.
// The SDK's ClientInfo re-encodes the value and decodes it again, with a
// decoder of 32 KiB each time: on every call, that was an eighth of what a
// job_status allocated (an allocation profile of BenchmarkStatus50), and
// the collector ran every few calls.
func metaName(p mcp.Params) (string, bool) {
	if p == nil {
		return "", false
	}
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && v.IsNil() {
		return "", false
	}
	info, ok := p.GetMeta()[mcp.MetaKeyClientInfo].(map[string]any)
	if !ok {
		return "", false
	}
	name, ok := info["name"].(string)
	return name, ok
}

// clientName is the calling client's name from its initialize request (or
// the request's own client info) as ShownClient shows it.
func clientName(req *mcp.CallToolRequest) string {
	if req != nil {
		if name, ok := metaName(req.Params); ok {
			return ShownClient(name)
		}
		if info := req.ClientInfo(); info != nil {
			return ShownClient(info.Name)
		}
	}
	return ShownClient("")
}

// ShownClient is how an MCP client's name (its clientInfo.name) is shown
// everywhere, in job owners, the console and `jobdeck sessions`: one plain
// line (escape sequences dropped, as from a job's output) of at most
// model.MaxNameBytes characters; "agent" when it gave none.
func ShownClient(name string) string {
	if name := model.OneLine(plainString(name), model.MaxNameBytes); name != "" {
		return name
	}
	return "agent"
}
