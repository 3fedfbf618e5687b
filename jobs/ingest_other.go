//go:build !linux

package jobs

import (
	"os"
	"sync"
)

// ingestPool has no ingest goroutines here: every stream gets its own
// reader (pump).
type ingestPool struct {
	wg *sync.WaitGroup // unused: the Table's goroutines, as on Linux
}

// read reports that it did not take f.
func (*ingestPool) read(*os.File, stream) bool { return false }

// close does nothing.
func (*ingestPool) close() {}
