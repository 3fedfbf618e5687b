//go:build unix

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/session"
)

// runSessions is `jobdeck sessions` (list the user's live sessions) and
// `jobdeck sessions stop <worktree|name>` (stop one and its jobs).
func runSessions(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("jobdeck sessions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: jobdeck sessions              list your live sessions\n"+
			"       jobdeck sessions stop [DIR|NAME] stop a session and every job in it (default: this worktree's)\n")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 7*time.Minute)
	defer cancel()
	switch fs.Arg(0) {
	case "", "list", "ls":
		return listSessions(ctx, stdout, stderr)
	case "stop":
		if fs.NArg() > 2 {
			fmt.Fprintln(stderr, "jobdeck sessions stop takes one worktree directory or session name")
			return 2
		}
		return stopSession(ctx, fs.Arg(1), stdout, stderr)
	}
	fmt.Fprintf(stderr, "jobdeck sessions: unknown subcommand %q; try `jobdeck sessions` or `jobdeck sessions stop DIR`\n", fs.Arg(0))
	return 2
}

func listSessions(ctx context.Context, stdout, stderr io.Writer) int {
	live, err := session.List(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "jobdeck: %v\n", err)
		return 1
	}
	if len(live) == 0 {
		fmt.Fprintln(stdout, "no live sessions")
		return 0
	}
	for _, l := range live {
		i := l.Info
		if l.Err != nil {
			fmt.Fprintf(stdout, "%s\n  (not answering: %v)\n", i.Label(), l.Err)
			continue
		}
		fmt.Fprintf(stdout, "%s\n  pid %d, up %s, %d running of %d jobs, jobdeck %s\n", i.Label(), i.PID,
			time.Since(i.Started).Round(time.Second), i.Running, i.Jobs, i.Version)
		var who []string
		for _, c := range i.Clients {
			s := c.Name
			if c.PID > 0 {
				s += fmt.Sprintf(" (pid %d)", c.PID)
			}
			who = append(who, s)
		}
		if len(who) == 0 {
			who = []string{"nobody (lingering)"}
		}
		fmt.Fprintf(stdout, "  attached: %s\n", strings.Join(who, ", "))
	}
	return 0
}

// stopSession stops the session named by arg: a session name, or a
// directory (whose worktree's session it is); "" is this worktree.
func stopSession(ctx context.Context, arg string, stdout, stderr io.Writer) int {
	t, err := stopTarget(arg)
	if err != nil {
		fmt.Fprintf(stderr, "jobdeck: %v\n", err)
		return 2
	}
	info, err := session.Stop(ctx, t)
	if errors.Is(err, session.ErrNoSession) {
		fmt.Fprintf(stderr, "jobdeck: no live session for %s (`jobdeck sessions` lists them)\n", t.Label())
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "jobdeck: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "stopped the session of %s (%d running jobs stopped)\n", info.Label(), info.Running)
	return 0
}

// stopTarget reads `jobdeck sessions stop`'s argument: an existing
// directory means its worktree; anything else a session name.
func stopTarget(arg string) (session.Target, error) {
	if arg == "" {
		arg = "."
	}
	if st, err := os.Stat(arg); err == nil && st.IsDir() && (strings.ContainsRune(arg, filepath.Separator) || arg == "." || arg == "..") {
		wt, err := session.Worktree(arg)
		return session.Target{Worktree: wt}, err
	}
	if err := session.CheckName(arg); err != nil {
		return session.Target{}, fmt.Errorf("%q is neither a directory nor a session name: %w", arg, err)
	}
	return session.Target{Name: arg}, nil
}
