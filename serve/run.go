package serve

import (
	"context"
	"errors"
	"io"

	"github.com/jobdeck/jobdeck/jobs"
)

// RunStdio serves the MCP tools over stdin/stdout until EOF on stdin (then
// it returns nil) or ctx ends.
func RunStdio(ctx context.Context, core *jobs.Table, in io.Reader, out io.Writer) error {
	return errors.New("not implemented")
}

// RunHTTP serves the MCP tools over streamable HTTP on addr, which must be a
// loopback address; ready is called with the address once it listens.
func RunHTTP(ctx context.Context, core *jobs.Table, addr string, ready func(addr string)) error {
	return errors.New("not implemented")
}
