package main

import (
	"context"
	"errors"

	"github.com/jobdeck/jobdeck/jobs"
)

// runConsole runs the terminal UI until the user quits.
func runConsole(ctx context.Context, table *jobs.Table, commands []string) error {
	return errors.New("the console is not built yet; use --serve")
}
