//go:build !unix

package jobs

// newArena returns size bytes from the Go heap (no mmap on this platform).
func newArena(size int) []byte { return make([]byte, size) }

// freeArena leaves b to the garbage collector.
func freeArena(b []byte) {}
