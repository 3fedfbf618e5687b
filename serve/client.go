package serve

import (
	"context"
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
	if r, ok := req.(interface{ ClientInfo() *mcp.Implementation }); ok {
		if info := r.ClientInfo(); info != nil {
			return info.Name
		}
	}
	return ""
}

// clientName is the calling client's name from its initialize request (or
// the request's own client info) as ShownClient shows it.
func clientName(req *mcp.CallToolRequest) string {
	if req != nil {
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
