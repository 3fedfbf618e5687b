package supervisor

import "os"

// readEnd returns f, the jobdeck end of a job's stdout or stderr (a pty
// master or a pipe's read end), as the file Handle gives out: on Linux in
// blocking mode and outside Go's netpoller (redup); f is closed. Package
// jobs reads it from an epoll instance of its own, with the descriptor
// made non-blocking while it does (ARCHITECTURE.md §4); in the netpoller
// as well, every write of a flooding job would wake Go's poller for
// nobody; a reader that jobs cannot hand to epoll blocks an OS thread in
// read instead. On failure f is returned unchanged, still usable.
func readEnd(f *os.File) (*os.File, error) { return redup(f, false) }
