// Package stdio is the line filter of newline-delimited JSON-RPC 2.0, the
// MCP stdio transport's framing: it stands between a peer (an agent's
// stdin and stdout, a socket) and a JSON-RPC endpoint (the go-sdk's
// IOTransport) and guarantees that
//
//   - every line reaching the endpoint is one JSON-RPC message the SDK
//     decodes safely; any other line (not JSON, a batch, nesting over
//     1000, member names in another case, over MaxLine bytes …) is
//     answered here with a JSON-RPC error (-32700/-32600; one per element
//     for a batch) and the session goes on;
//   - at most 16 calls are passed on unanswered; lines read meanwhile
//     wait in a queue of at most 1024 lines and 16 MiB (ARCHITECTURE.md §5);
//   - at EOF on the input, the endpoint sees the end only once every call
//     already read is answered (DrainTimeout, then the waits are cut);
//   - every write to the output is one whole line under one lock.
//
// Open is the filter; CallKey, ResponseKey and ErrorReply let a relay
// that passes lines through whole (session's --serve relay) know which
// calls are unanswered and answer them itself. Files: filter.go (passing
// and holding calls), readahead.go (the bounded queue, the drain rule),
// check.go and scan.go (what a line must be, in one pass), ids.go
// (canonical ids and error replies). The package imports nothing of
// jobdeck's.
package stdio
