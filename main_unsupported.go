//go:build !unix

// jobdeck needs a Unix: a process tree of its own per job (sessions,
// process groups, signals), ptys, and Unix sockets with peer credentials
// between clients and their session. Elsewhere the binary builds (so that
// GOOS=windows go vet ./... checks every package) and says so.

package main

import (
	"fmt"
	"os"
	"runtime"
)

func main() {
	fmt.Fprintf(os.Stderr, "jobdeck runs on Linux, macOS and the BSDs, not on %s\n", runtime.GOOS)
	os.Exit(2)
}
