//go:build !unix

package serve

import "os"

// PollableStdin returns f and a restore that does nothing: only Unix
// stdin is moved into the netpoller (stdin_unix.go).
func PollableStdin(f *os.File) (file *os.File, restore func()) { return f, func() {} }
