package main

import (
	"context"
	"os"

	"github.com/jobdeck/jobdeck/jobs"
	"github.com/jobdeck/jobdeck/ui"
)

// consoleCore adapts *jobs.Table to ui.Core: only Subscribe's result type
// differs (the UI declares its own Subscription interface).
type consoleCore struct{ *jobs.Table }

// Subscribe returns the table's subscription as the UI's interface.
func (c consoleCore) Subscribe() ui.Subscription { return c.Table.Subscribe() }

var _ ui.Core = consoleCore{}

// runConsole runs the terminal UI until the user quits; commands start as
// jobs at launch. The caller stops whatever is still running afterwards.
func runConsole(ctx context.Context, table *jobs.Table, commands []string) error {
	return ui.Run(ctx, consoleCore{table}, ui.Options{
		KeyMap:     defaultKeyMap(),
		Commands:   commands,
		NoColor:    os.Getenv("NO_COLOR") != "",
		MaxRunning: jobs.DefaultMaxRunning,
	})
}
