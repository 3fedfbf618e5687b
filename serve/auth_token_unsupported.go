//go:build !unix

package serve

import (
	"fmt"
	"runtime"
)

// tokenFile cannot keep a private token file here (no Unix modes to make
// it the user's own): JOBDECK_TOKEN must give the token.
func tokenFile(string) (token, path string, err error) {
	return "", "", fmt.Errorf("no private token file on %s: set JOBDECK_TOKEN to a token (64 hex digits)", runtime.GOOS)
}
