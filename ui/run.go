package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/jobdeck/jobdeck/model"
)

// Options configure the console.
type Options struct {
	// KeyMap is every key binding; package main builds the default one.
	KeyMap KeyMap
	// Launch are started as jobs at once, in order (jobdeck -- 'cmd'…,
	// jobdeck -f Procfile). When a name among them belongs to a running
	// job already, none of them is started.
	Launch []model.Spec
	// NoColor turns every colour off, the console's and the jobs' (set it
	// when NO_COLOR is set to a non-empty value).
	NoColor bool
	// Version is shown in the help overlay.
	Version string
	// Owner is who the console says it is to the core: the Owner of the
	// jobs it starts and the By of the stops it asks for; empty means
	// DefaultOwner.
	Owner string
	// MaxRunning is the core's running-jobs limit, shown as "3/8
	// running"; zero means 8.
	MaxRunning int
	// Now is the clock for elapsed times; nil means time.Now. Tests fix it.
	Now func() time.Time
	// Input and Output replace the terminal (headless runs and
	// benchmarks); nil means the terminal.
	Input  io.Reader
	Output io.Writer
	// Width and Height set the initial size when Output is not a terminal;
	// zero leaves it to the terminal.
	Width, Height int

	// ColorProfile, when set, forces a colour profile (benchmarks: a
	// headless run would otherwise strip every colour and skip that work).
	// NoColor wins over it.
	ColorProfile *colorprofile.Profile
}

// DefaultOwner is the console's Owner when Options does not name one.
const DefaultOwner = "console"

// Run runs the console on the terminal (in the alternate screen) until the
// user quits, after confirming when jobs run and after stopping them, or
// until ctx ends. It never closes core: its caller stops every job after
// Run returns. The error is ctx's error when ctx ended the console, or
// what went wrong with the terminal.
func Run(ctx context.Context, core Core, opts Options) error {
	m := New(ctx, core, opts)
	defer m.Close()
	// The renderer writes frames only on its own ticker, and Bubble Tea
	// offers no way to write one right after an update: a key's frame
	// waits for the next tick (charmbracelet/bubbletea#1501; of the PRs
	// that would draw such a frame at once, #1661 was closed, #1776 and
	// #1796 are open). 120 a second is the most it allows: a key
	// waits at most 8.3 ms (4.2 on average; at 60, 16.7 and 8.3), for
	// about 0.6 % more of a core while idle (1.9 % against 1.2 %,
	// BenchmarkTUICPU). Output still redraws at most 30 times a second
	// (15 in a flood: the model's frame tick, pace.go); a tick with
	// nothing new costs a string comparison.
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(120)}
	if opts.NoColor {
		// Downsample whatever colour is left (none should be) and keep
		// bold, reverse and the like, which NO_COLOR allows.
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	if opts.ColorProfile != nil && !opts.NoColor {
		popts = append(popts, tea.WithColorProfile(*opts.ColorProfile))
	}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if opts.Output != nil {
		popts = append(popts, tea.WithOutput(opts.Output))
	}
	if opts.Width > 0 && opts.Height > 0 {
		popts = append(popts, tea.WithWindowSize(opts.Width, opts.Height))
	}
	_, err := tea.NewProgram(m, popts...).Run()
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, tea.ErrInterrupted):
		return nil
	default:
		return fmt.Errorf("console: %w", err)
	}
}

// helpOverlay builds the /help overlay: the commands, then every key.
func (m *Model) helpOverlay() *overlay {
	var b strings.Builder
	title := "help"
	if m.version != "" {
		title = "jobdeck " + m.version + " help"
	}
	b.WriteString("Commands (press / or : to type one; Tab completes, ↑/↓ walk the history):\n")
	for _, c := range paletteCommands {
		fmt.Fprintf(&b, "  %-24s %s\n", c.usage, c.help)
	}
	b.WriteString("\nKeys:\n")
	for _, col := range m.keys.FullHelp() {
		for _, k := range col {
			if h := k.Help(); k.Enabled() && h.Key != "" {
				fmt.Fprintf(&b, "  %-24s %s\n", h.Key, h.Desc)
			}
		}
	}
	b.WriteString("\nPanes: stderr lines are marked ! · [… N lines dropped] marks output the ring no longer holds.\n")
	b.WriteString(mouseHelp + "\n")
	o := newOverlay(title, b.String())
	o.wrap = true // its long lines show whole at any width (w cuts them)
	return o
}
