//go:build unix && !linux

package supervisor

import "os"

// readEnd returns f, the jobdeck end of a job's stdout or stderr, as the
// file Handle gives out: non-blocking, in Go's netpoller (redup), where
// package jobs reads it with a goroutine per stream; f is closed.
// creack/pty reaches the pty master through File.Fd (ioctls), which puts
// it in blocking mode, and a blocking read holds an OS thread of
// jobdeck's for the job's whole life: threads count against the user's
// process limit, and when a new one cannot be made (a fork bomb in
// another job) the Go runtime aborts. On failure f is returned
// unchanged, still usable.
func readEnd(f *os.File) (*os.File, error) { return redup(f, true) }
