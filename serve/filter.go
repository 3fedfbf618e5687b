package serve

import (
	"context"
	"io"
)

// FilterStream puts the stdio line filter between a peer that speaks
// newline-delimited JSON-RPC 2.0 (in, out) and any JSON-RPC endpoint that
// reads the returned reader and writes the returned writer, one whole
// message per Write (the go-sdk's IOTransport does both). A line that the
// endpoint could not take safely (not JSON, not a JSON-RPC message, a
// batch, nesting too deep, member names in another case, over 16 MiB …)
// never reaches it: the filter answers it with a JSON-RPC error
// (-32700/-32600; one per element for a batch) and the peer's session goes
// on. At EOF on in, the reader ends once every call already read has been
// answered. jobdeck's session uses it on its console connections, as
// RunStdio does on the agent's.
func FilterStream(ctx context.Context, in io.Reader, out io.Writer) (io.ReadCloser, io.WriteCloser) {
	f := newLineFilter(out)
	pr, pw := io.Pipe()
	go f.copy(ctx, in, pw, func() {})
	return pr, sdkWriter{f}
}
