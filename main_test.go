package main

import (
	"os"
	"testing"

	"github.com/jobdeck/jobdeck/supervisor"
)

// TestMain lets the test binary act as the per-job supervisor, as the
// jobdeck binary does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == supervisor.Arg {
		os.Exit(supervisor.Main())
	}
	supervisor.Hygiene()
	os.Exit(m.Run())
}
