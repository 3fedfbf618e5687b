//go:build race

package supervisor

import (
	"os"
	"strings"
)

// supervisorEnv is the supervisor's environment in a build with the race
// detector (tests): jobdeck's, with atexit_sleep_ms=0 added to GORACE
// unless it sets it. Otherwise every race-built supervisor sleeps 1 s
// before it exits, and a job that ends at once is reported done a second
// late (its events end when the supervisor is reaped).
func supervisorEnv() []string {
	env := os.Environ()
	for i, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GORACE="); ok {
			if !strings.Contains(v, "atexit_sleep_ms") {
				env[i] = kv + " atexit_sleep_ms=0"
			}
			return env
		}
	}
	return append(env, "GORACE=atexit_sleep_ms=0")
}
