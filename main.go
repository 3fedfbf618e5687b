//go:build unix

// Command jobdeck is a job console for a coding session: a terminal UI in
// which a developer watches and kills background jobs, and, with --serve, an
// MCP server through which a coding agent drives the same kind of jobs.
//
// Usage:
//
//	jobdeck [-- 'cmd one' 'cmd two' ...]   the console, starting those jobs
//	jobdeck -f Procfile                    the console, starting each entry as a named job
//	jobdeck --serve                        MCP over stdin/stdout
//	jobdeck --serve --http 127.0.0.1:PORT  MCP over streamable HTTP, loopback only
//	jobdeck sessions [stop [DIR|NAME]]     list the live sessions, or stop one
//	jobdeck mcp [--http [ADDR]]            print how to connect an MCP client to this binary
//
// Every jobdeck started in the same worktree joins one session (package
// session): one jobs core shared by the console and every agent.
// --session NAME joins a named session instead; --private keeps a core of
// its own in this process.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/jobs"
	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/serve"
	"github.com/jobdeck/jobdeck/session"
	"github.com/jobdeck/jobdeck/supervisor"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == supervisor.Arg {
		os.Exit(supervisor.Main())
	}
	supervisor.Hygiene()
	if len(os.Args) > 1 && os.Args[1] == session.Arg {
		os.Exit(session.Main())
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// shutdownMargin is how long, beyond the grace, jobdeck waits for every
// job's tree to be empty when it exits (the supervisors finish the stops
// on their own if it gives up).
const shutdownMargin = 10 * time.Second

// run is jobdeck's main: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "sessions" {
		return runSessions(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "mcp" {
		return runMCP(args[1:], stdout, stderr)
	}
	cfg, code, ok := parseArgs(args, stdout, stderr)
	if !ok {
		return code
	}
	if !cfg.serve {
		if err := checkTerminal(stdin); err != nil {
			fmt.Fprintf(stderr, "jobdeck: %v\n", err)
			return 1
		}
	}
	if !cfg.so.private {
		return runShared(cfg.so, sharedMode{serve: cfg.serve, http: cfg.http, token: cfg.token, grace: cfg.grace,
			graceSet: cfg.graceSet, launch: cfg.specs, from: cfg.from}, stdin, stdout, stderr)
	}
	return runPrivate(cfg, stdin, stdout, stderr)
}

// config is what the command line asks for.
type config struct {
	serve    bool
	http     string // with serve: the loopback address of streamable HTTP
	token    string // with http: the bearer token
	grace    *time.Duration
	graceSet bool // --grace was given
	so       *sessionOpts
	specs    []model.Spec // the jobs the console starts at launch
	from     []string     // where each came from (launchOpts.from)
}

// parseArgs reads and checks the command line. ok is false when jobdeck
// is to exit at once with code (help, --version, a bad flag: said on
// stderr).
func parseArgs(args []string, stdout, stderr io.Writer) (cfg config, code int, ok bool) {
	fs := flag.NewFlagSet("jobdeck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	serveMode := fs.Bool("serve", false, "serve MCP tools (background, job_status, job_kill) on stdin/stdout instead of opening the console")
	httpAddr := fs.String("http", "", "with --serve: serve streamable HTTP on this loopback address (127.0.0.1:PORT) instead of stdio")
	grace := fs.Duration("grace", jobs.DefaultGrace, "time between SIGTERM and SIGKILL when stopping a job (0: SIGKILL at once)")
	so := sessionFlags(fs)
	lo := launchFlags(fs)
	fs.Usage = func() { usage(fs, stderr) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, 0, false
		}
		return cfg, 2, false
	}
	fail := func(code int, format string, a ...any) (config, int, bool) {
		fmt.Fprintf(stderr, "jobdeck: "+format+"\n", a...)
		return cfg, code, false
	}
	switch {
	case lo.version:
		fmt.Fprintln(stdout, "jobdeck", session.Version())
		return cfg, 0, false
	case *httpAddr != "" && !*serveMode:
		return fail(2, "--http needs --serve (try: jobdeck --serve --http 127.0.0.1:8765)")
	case *httpAddr != "" && serve.CheckHTTPAddr(*httpAddr) != nil:
		return fail(2, "--http %v", strings.TrimPrefix(serve.CheckHTTPAddr(*httpAddr).Error(), "serve http: "))
	case *serveMode && (fs.NArg() > 0 || lo.procfile != ""):
		return fail(2, "--serve takes no commands; the agent starts jobs with the background tool")
	}
	if err := model.CheckGrace(*grace, model.ErrBadSpec); err != nil {
		return fail(2, "--grace %v is out of range; give 0 to %v (e.g. --grace 3s)", *grace, model.MaxGrace)
	}
	if err := so.check(); err != nil {
		return fail(2, "%v", err)
	}
	so.lingerSet = flagSet(fs, "linger")
	token, ok := takeHTTPToken(*httpAddr, stderr)
	if !ok {
		return cfg, 1, false
	}
	commands := fs.Args()
	if len(commands) > 0 && commands[0] == "sessions" && !dashDash(args, commands) {
		return fail(2, "sessions is a subcommand: give it first, without flags (jobdeck sessions, jobdeck sessions stop); to start a command named sessions, write jobdeck -- sessions")
	}
	if launched, ok, err := launchCommands(); ok {
		// Re-executed by hideCommands: the commands come from its file.
		supervisor.SetProcessName(filepath.Base(os.Args[0]))
		if err != nil {
			return fail(2, "reading the commands to start: %v", err)
		}
		commands = launched
	} else if len(commands) > 0 {
		hideCommands(args[:len(args)-len(commands)], commands, stderr)
	}
	// Everything to start is read before anything starts: a bad Procfile
	// starts nothing.
	specs, err := lo.specs(commands)
	if err != nil {
		return fail(2, "%v", err)
	}
	return config{serve: *serveMode, http: *httpAddr, token: token, grace: grace,
		graceSet: flagSet(fs, "grace"), so: so, specs: specs, from: lo.from}, 0, true
}

// usage is -h.
func usage(fs *flag.FlagSet, stderr io.Writer) {
	fmt.Fprintf(stderr, "usage: jobdeck [flags] [-f Procfile] [-- 'command' ...]\n"+
		"       jobdeck sessions [stop [DIR|NAME]]\n"+
		"       jobdeck mcp [--http [ADDR]]   (how to connect an MCP client)\n\n"+
		"Opens the job console; commands after -- start as jobs at once, and so\n"+
		"does each `name: command` line of a Procfile given with -f (as a job of\n"+
		"that name, in the Procfile's directory).\n"+
		"With --serve, serves the same jobs to a coding agent over MCP.\n"+
		"Every jobdeck started in one worktree (git top level, else the directory)\n"+
		"joins that worktree's session: one live set of jobs for the console and\n"+
		"every agent. The session ends a few seconds (--linger) after its last\n"+
		"client leaves, stopping its jobs. `jobdeck sessions` lists your live\n"+
		"sessions; `jobdeck sessions stop` stops this worktree's (or DIR's, or\n"+
		"the one named NAME).\n\nflags:\n")
	fs.PrintDefaults()
}

// runPrivate runs jobdeck with a jobs core of its own (--private): this
// process hosts the jobs, and they end with it.
func runPrivate(cfg config, stdin io.Reader, stdout, stderr io.Writer) int {
	// End what jobdecks that died left behind (job cgroups, private
	// directories), and adopt what dead supervisors leave from now on.
	if err := supervisor.HostJobs(); err != nil {
		fmt.Fprintf(stderr, "jobdeck: %v\n", err)
	}
	table, err := jobs.New(jobs.Options{Grace: cfg.grace})
	if err != nil {
		fmt.Fprintf(stderr, "jobdeck: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	defer stop()
	code := 0
	switch {
	case cfg.serve && cfg.http != "":
		err = serveHTTP(ctx, table, cfg.http, cfg.token, stderr)
	case cfg.serve:
		in, restore := agentStdin(stdin)
		err = serve.RunStdio(ctx, table, in, stdout)
		restore()
	default:
		// A console in a background process group (the shell took the
		// terminal back, as bash does when its terminal hangs up) must not
		// be stopped by SIGTTIN/SIGTTOU while it reads keys or restores
		// the terminal: it would stay stopped, with its jobs, once the
		// shell is gone. Ignored, those reads and writes fail instead and
		// jobdeck shuts down. (Jobs do not inherit this: each supervisor
		// resets ignored signals before it starts the job.)
		signal.Ignore(syscall.SIGTTIN, syscall.SIGTTOU)
		err = runConsole(ctx, table, cfg.specs)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "jobdeck: %v\n", err)
		code = 1
	}
	closeCtx, cancel := context.WithTimeout(context.Background(), *cfg.grace+shutdownMargin)
	defer cancel()
	if err := table.Close(closeCtx); err != nil {
		fmt.Fprintf(stderr, "jobdeck: stopping jobs: %v\n", err)
		code = 1
	}
	return code
}

// dashDash tells whether the command line ended its flags with "--" right
// before commands (the flag package drops it from the arguments).
func dashDash(args, commands []string) bool {
	i := len(args) - len(commands) - 1
	return i >= 0 && args[i] == "--"
}

// agentStdin is the input of the --serve stdio modes: stdin moved into Go's
// netpoller when it is the process's file (serve.PollableStdin), with the
// restore to call when done.
func agentStdin(stdin io.Reader) (io.Reader, func()) {
	if f, ok := stdin.(*os.File); ok {
		return serve.PollableStdin(f)
	}
	return stdin, func() {}
}
