//go:build unix

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/session"
)

// sessionOpts are the flags that choose a session.
type sessionOpts struct {
	name      string
	private   bool
	linger    time.Duration
	lingerSet bool  // --linger was given
	envErr    error // $JOBDECK_LINGER is not a linger
}

// envLinger names the environment variable that sets --linger's default:
// a Go duration from 0s to session.MaxLinger.
const envLinger = "JOBDECK_LINGER"

// sessionFlags declares --session, --private and --linger on fs, into
// so; the linger's default is $JOBDECK_LINGER when env has it (check
// reports a bad one).
func sessionFlags(fs *flag.FlagSet, so *sessionOpts, env func(string) (string, bool)) {
	linger := session.DefaultLinger
	if v, ok := env(envLinger); ok {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > session.MaxLinger {
			so.envErr = fmt.Errorf("%s=%s is not a linger; give 0s to %v (e.g. %s=10s), or unset it", envLinger, model.OneLine(v, 40), session.MaxLinger, envLinger)
		} else {
			linger = d
		}
	}
	fs.StringVar(&so.name, "session", "", "join the session named `NAME` (from any directory) instead of this worktree's")
	fs.BoolVar(&so.private, "private", false, "keep a session of its own that nothing else can join (its jobs end with this jobdeck)")
	fs.DurationVar(&so.linger, "linger", linger, "how long a session this jobdeck starts outlives its last client, at most 1m (default from $"+envLinger+" when set)")
}

// check validates the session flags; the error says what to do.
func (so *sessionOpts) check() error {
	switch {
	case so.envErr != nil:
		return so.envErr
	case so.private && so.name != "":
		return errors.New("--private and --session exclude each other: a private session has no name to join")
	case so.linger < 0 || so.linger > session.MaxLinger:
		return fmt.Errorf("--linger %v is out of range; give 0s to %v (e.g. --linger 10s)", so.linger, session.MaxLinger)
	case so.name != "":
		return session.CheckName(so.name)
	}
	return nil
}

// target is the session this jobdeck joins: the named one, or the one of
// the worktree of the working directory.
func (so *sessionOpts) target() (session.Target, error) {
	wd, err := os.Getwd()
	if err != nil {
		return session.Target{}, fmt.Errorf("find the working directory: %w", err)
	}
	wt, err := session.Worktree(wd)
	if err != nil {
		return session.Target{}, err
	}
	return session.Target{Name: so.name, Worktree: wt}, nil
}

// runShared runs jobdeck as a client of the session of its worktree (or
// the named one), starting that session when none is alive.
func runShared(cfg config, stdin io.Reader, stdout, stderr io.Writer) int {
	so := cfg.session
	target, err := so.target()
	if err != nil {
		fmt.Fprintf(stderr, "jobdeck: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	defer stop()
	grace := cfg.grace
	opts := session.JoinOptions{
		Target: target, Linger: so.linger, Grace: grace,
		Waiting: func(msg string) { fmt.Fprintf(stderr, "jobdeck: %s\n", msg) },
	}
	if cfg.graceSet {
		opts.JobGrace = grace
	}
	opts.Structured = cfg.structured.set
	opts.Joined = func(w session.Welcome, started bool) {
		if so.lingerSet && !started {
			fmt.Fprintf(stderr, "jobdeck: --linger applies to a session this jobdeck starts; %s was running already, and keeps its own\n", w.Info.Phrase())
		}
	}
	switch {
	case cfg.serve && cfg.http != "":
		err = runSharedHTTP(ctx, opts, cfg.http, cfg.token, stderr)
	case cfg.serve:
		in, restore := agentStdin(stdin)
		err = session.Relay(ctx, opts, in, stdout)
		restore()
	default:
		err = runAttachedConsole(ctx, opts, cfg.specs, cfg.from, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "jobdeck: %v\n", err)
		return 1
	}
	return 0
}

// runAttachedConsole runs the console on the session's core. The session
// lives on after it while other clients are attached; then the console
// says what keeps running, for whom.
func runAttachedConsole(ctx context.Context, opts session.JoinOptions, launch []model.Spec, from []string, stderr io.Writer) error {
	// See the private console in main.go: a console in a background
	// process group must not stop on SIGTTIN/SIGTTOU.
	signal.Ignore(syscall.SIGTTIN, syscall.SIGTTOU)
	opts.Kind, opts.Name = session.KindConsole, "console"
	r, err := session.Attach(ctx, opts)
	if err != nil {
		return err
	}
	core := &remoteCore{opts: opts, r: r}
	defer core.Close()
	// A Procfile whose names the session's running jobs have starts
	// nothing, and says so with its lines before the console opens.
	if err := launchClash(ctx, core.List, launch, from); err != nil {
		return err
	}
	err = runRemoteConsole(ctx, core, launch)
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	if msg := detachNote(core); msg != "" {
		fmt.Fprintf(stderr, "jobdeck: %s\n", msg)
	}
	return err
}

// detachNote says, as the console leaves a session that others use, what
// keeps running and for whom; "" when nothing does.
func detachNote(core *remoteCore) string {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	si, err := core.Session(ctx)
	if err != nil || len(si.Others()) == 0 {
		return ""
	}
	jobs, err := core.List(ctx)
	if err != nil {
		return ""
	}
	live := 0
	for _, j := range jobs {
		if j.Live() {
			live++
		}
	}
	var names []string
	for _, c := range si.Others() {
		names = append(names, c.Name)
	}
	where := core.remote().Info().Phrase()
	switch live {
	case 0:
		return fmt.Sprintf("detached from %s (%s still attached)", where, strings.Join(names, ", "))
	case 1:
		return fmt.Sprintf("detached from %s; 1 job keeps running for %s", where, strings.Join(names, ", "))
	}
	return fmt.Sprintf("detached from %s; %d jobs keep running for %s", where, live, strings.Join(names, ", "))
}

// runSharedHTTP asks the session to serve MCP over streamable HTTP on
// addr, and stays attached (keeping the server up) until a signal ends
// this process or the session goes away.
func runSharedHTTP(ctx context.Context, opts session.JoinOptions, addr, token string, stderr io.Writer) error {
	opts.Kind = session.KindHTTP
	opts.Name = "http " + addr
	opts.HTTP = &session.HTTPParams{Addr: addr, Token: token}
	conn, err := session.Join(ctx, opts)
	if err != nil {
		return err
	}
	defer conn.Close()
	fmt.Fprintf(stderr, "jobdeck: serving MCP on http://%s/mcp for %s\n", conn.Welcome.HTTPAddr, conn.Welcome.Info.Phrase())
	lost := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, conn)
		close(lost)
	}()
	select {
	case <-ctx.Done():
		return nil
	case <-lost:
		return fmt.Errorf("%w: the session ended, and with it the HTTP server", session.ErrLinkLost)
	}
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
