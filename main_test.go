//go:build unix

package main

import (
	"os"
	"testing"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/session"
	"github.com/jobdeck/jobdeck/supervisor"
)

// asJobdeckEnv makes the test binary run jobdeck's main.
const asJobdeckEnv = "JOBDECK_TEST_AS_JOBDECK"

// TestMain lets the test binary act as the per-job supervisor, as the
// jobdeck binary does, and as jobdeck itself when asJobdeckEnv is set.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == supervisor.Arg {
		os.Exit(supervisor.Main())
	}
	if os.Getenv(asJobdeckEnv) != "" {
		main() // the test binary as the jobdeck binary (see asJobdeck)
		return
	}
	if len(os.Args) > 1 && os.Args[1] == session.Arg {
		// A session a benchmark started (session.Attach runs this binary).
		supervisor.Hygiene()
		os.Exit(session.Main())
	}
	supervisor.Hygiene()
	code := m.Run()
	testkit.RemoveBuilds()
	os.Exit(code)
}
