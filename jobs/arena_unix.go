//go:build unix

package jobs

import "golang.org/x/sys/unix"

// newArena returns size bytes of anonymous memory outside the Go heap.
// A ring's bytes are its biggest allocation and are replaced whole when it
// grows or shrinks; keeping them out of the garbage-collected heap means
// the old arena's pages go back to the kernel at once (munmap) instead of
// waiting, as garbage, for a collection that the heap's growth target may
// put off, so jobdeck's RSS follows what the rings hold. Pages that are
// never written cost nothing.
func newArena(size int) []byte {
	b, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		// Out of address space or a seccomp filter: the heap still works.
		return make([]byte, size)
	}
	return b
}

// freeArena returns an arena from newArena to the kernel. b must not be
// used afterwards.
func freeArena(b []byte) {
	if len(b) == 0 {
		return
	}
	if unix.Munmap(b) != nil {
		// It came from make (newArena's fallback): the GC frees it.
		return
	}
}
