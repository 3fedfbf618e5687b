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

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/session"
)

// runSessions is `jobdeck sessions` or `jobdeck sessions list` (list the
// user's live sessions) and `jobdeck sessions stop <worktree|name>` (stop
// one and its jobs).
func runSessions(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("jobdeck sessions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: jobdeck sessions [list]       list your live sessions\n"+
			"       jobdeck sessions stop [DIR|NAME] stop a session and every job in it (default: this worktree's)\n"+
			"       jobdeck sessions stop --session NAME  stop the session named NAME\n")
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
		if fs.NArg() > 1 {
			fmt.Fprintf(stderr, "jobdeck sessions %s takes no arguments (it was given %q); to stop a session, write jobdeck sessions stop [DIR|NAME]\n", fs.Arg(0), model.OneLine(strings.Join(fs.Args()[1:], " "), 80))
			return 2
		}
		return listSessions(ctx, stdout, stderr)
	case "stop":
		sfs := flag.NewFlagSet("jobdeck sessions stop", flag.ContinueOnError)
		sfs.SetOutput(stderr)
		name := sfs.String("session", "", "stop the session of this name (not a directory's)")
		if err := sfs.Parse(fs.Args()[1:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		named := false
		sfs.Visit(func(f *flag.Flag) { named = named || f.Name == "session" })
		if sfs.NArg() == 1 && sfs.Arg(0) == "" {
			fmt.Fprintln(stderr, "jobdeck sessions stop: the directory or name is empty: give a worktree directory or a session name, or nothing for this worktree's session")
			return 2
		}
		if sfs.NArg() > 1 || (named && sfs.NArg() > 0) {
			fmt.Fprintln(stderr, "jobdeck sessions stop takes one worktree directory or session name (or --session NAME)")
			return 2
		}
		if named {
			if err := session.CheckName(*name); err != nil {
				fmt.Fprintf(stderr, "jobdeck: %v\n", err)
				return 2
			}
			return stopTargets(ctx, []session.Target{{Name: *name}}, stdout, stderr)
		}
		targets, err := stopCandidates(ctx, sfs.Arg(0))
		if err != nil {
			fmt.Fprintf(stderr, "jobdeck: %v\n", err)
			return 2
		}
		return stopTargets(ctx, targets, stdout, stderr)
	}
	fmt.Fprintf(stderr, "jobdeck sessions: unknown subcommand %q; try `jobdeck sessions list` or `jobdeck sessions stop DIR`\n", shownArg(fs.Arg(0)))
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
		switch {
		case errors.Is(l.Err, session.ErrEnding), errors.Is(l.Err, session.ErrStarting):
			fmt.Fprintf(stdout, "%s\n  (%v)\n", i.Label(), l.Err)
			continue
		case l.Err != nil:
			fmt.Fprintf(stdout, "%s\n  (not answering: %v)\n", i.Label(), l.Err)
			continue
		}
		fmt.Fprintf(stdout, "%s\n  pid %d, up %s, %d running of %d jobs, jobdeck %s\n", i.Label(), i.PID,
			time.Since(i.Started).Round(time.Second), i.Running, i.Jobs, i.Version)
		var who []string
		for _, c := range i.Clients {
			who = append(who, clientPhrase(c))
		}
		if len(who) == 0 {
			who = []string{"nobody (lingering)"}
		}
		fmt.Fprintf(stdout, "  attached: %s\n", strings.Join(who, ", "))
	}
	return 0
}

// stopTargets stops the first live session of targets and says so; none
// live is exit 1.
func stopTargets(ctx context.Context, targets []session.Target, stdout, stderr io.Writer) int {
	for _, t := range targets {
		info, err := session.Stop(ctx, t)
		if errors.Is(err, session.ErrNoSession) {
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "jobdeck: %v\n", err)
			return 1
		}
		what := "no job was running"
		switch {
		case info.Ending:
			what = "it was stopping its jobs already"
		case info.Running == 1:
			what = "its 1 running job stopped"
		case info.Running > 1:
			what = fmt.Sprintf("its %d running jobs stopped", info.Running)
		}
		fmt.Fprintf(stdout, "stopped %s (%s)\n", info.Phrase(), what)
		return 0
	}
	names := make([]string, len(targets))
	for i, t := range targets {
		names[i] = shownArg(t.Phrase())
	}
	fmt.Fprintf(stderr, "jobdeck: no live session: not %s (`jobdeck sessions` lists them)\n", strings.Join(names, ", nor "))
	return 1
}

// stopCandidates reads `jobdeck sessions stop`'s argument: the sessions it
// may mean, in order. An existing directory means its worktree's session;
// a path that no longer exists (its worktree was removed) the session of
// that path; a word that is both a directory here and a session name
// means either, and when both are live it is refused as ambiguous; any
// other word is a session name.
func stopCandidates(ctx context.Context, arg string) ([]session.Target, error) {
	if arg == "" {
		arg = "."
	}
	var out []session.Target
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		wt, err := session.Worktree(arg)
		if err != nil {
			return nil, err
		}
		out = append(out, session.Target{Worktree: wt})
	} else if strings.ContainsRune(arg, '/') {
		// A worktree that is gone (its session lists it still): the
		// path as the session knows it.
		abs, err := filepath.Abs(arg)
		if err != nil {
			return nil, err
		}
		return []session.Target{{Worktree: abs}}, nil
	}
	if session.CheckName(arg) == nil {
		out = append(out, session.Target{Name: arg})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q is neither a directory nor a session name (letters, digits, '.', '_' or '-'): give the worktree's directory or the session's name", shownArg(arg))
	}
	if live := liveKeys(ctx, out); len(out) == 2 && live[out[0].Key()] && live[out[1].Key()] {
		return nil, fmt.Errorf("%q means two live sessions, %s (the directory here) and %s: write ./%s for the first, or jobdeck sessions stop --session %s for the second", arg, out[0].Phrase(), out[1].Phrase(), arg, arg)
	}
	return out, nil
}

// maxShownArg is how many characters of a command-line argument a message
// shows (model.OneLine cuts the rest with "…").
const maxShownArg = 80

// shownArg is an argument (or a phrase made of one) as a message shows
// it: on one line, at most maxShownArg characters.
func shownArg(s string) string { return model.OneLine(s, maxShownArg) }

// liveKeys are the keys of the user's live sessions, listed once, when
// targets may mean two (none when they cannot be listed).
func liveKeys(ctx context.Context, targets []session.Target) map[string]bool {
	if len(targets) < 2 {
		return nil
	}
	live, _ := session.List(ctx)
	keys := map[string]bool{}
	for _, l := range live {
		keys[l.Info.Key] = true
	}
	return keys
}

// clientPhrase is how `jobdeck sessions` lists a client: "claude-code (pid
// 4242)", and for one that runs inside a job of the session itself
// "mcp (pid 4300, inside job 2: does not keep the session)".
func clientPhrase(c session.ClientInfo) string {
	var notes []string
	if c.PID > 0 {
		notes = append(notes, fmt.Sprintf("pid %d", c.PID))
	}
	switch {
	case c.Nested && c.InJob != nil:
		notes = append(notes, fmt.Sprintf("inside job %d: does not keep the session", *c.InJob))
	case c.Nested:
		notes = append(notes, "inside one of its jobs: does not keep the session")
	}
	if len(notes) == 0 {
		return c.Name
	}
	return c.Name + " (" + strings.Join(notes, ", ") + ")"
}
