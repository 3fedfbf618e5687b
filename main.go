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
//	jobdeck --serve --structured           results as text and structuredContent (typed)
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

// run is jobdeck's main: it returns the exit code. Its steps: parse the
// command line (parseArgs, pure), do what must come before any mode runs
// (setup), then run the mode: a client of the session (runShared) or a
// core of its own (runPrivate).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "sessions" {
		return runSessions(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "mcp" {
		return runMCP(args[1:], stdout, stderr)
	}
	cfg, err := parseArgs(args, os.LookupEnv)
	var refused *argsError
	switch {
	case errors.As(err, &refused):
		fmt.Fprint(stderr, refused.text)
		return refused.code
	case cfg.version:
		fmt.Fprintln(stdout, "jobdeck", session.Version())
		return 0
	}
	if code, ok := setup(&cfg, stderr); !ok {
		return code
	}
	if !cfg.serve {
		if err := checkTerminal(stdin); err != nil {
			fmt.Fprintf(stderr, "jobdeck: %v\n", err)
			return 1
		}
	}
	if !cfg.session.private {
		return runShared(cfg, stdin, stdout, stderr)
	}
	return runPrivate(cfg, stdin, stdout, stderr)
}

// config is what the command line asks for (parseArgs), completed by
// setup: one value for every mode.
type config struct {
	serve bool
	http  string // with serve: the loopback address of streamable HTTP
	// structured: with serve, results carry structured content too
	// (--structured, a flag without a value).
	structured presenceFlag
	grace      *time.Duration
	graceSet   bool // --grace was given: the grace of this client's jobs too
	version    bool // --version: print it and exit
	session    sessionOpts
	procfile   string // -f: the Procfile whose entries start at launch
	// flags are the arguments before commands (with a final "--"), for
	// the re-exec that hides the commands (hideCommands).
	flags    []string
	commands []string // the commands after the flags, as given

	// Set by setup.
	token string       // with http: the bearer token
	specs []model.Spec // the jobs the console starts at launch
	from  []string     // where each came from (launchSpecs)
}

// argsError is a command line jobdeck does not run: text (whole lines,
// for stderr) says why, or is the help asked for; code is the exit code.
type argsError struct {
	code int
	text string
}

func (e *argsError) Error() string { return e.text }

// refuse is the argsError of exit code 2 with "jobdeck: " and the
// formatted reason.
func refuse(format string, a ...any) *argsError {
	return &argsError{code: 2, text: fmt.Sprintf("jobdeck: "+format+"\n", a...)}
}

// parseArgs reads and checks the command line, with env for the
// variables that set a flag's default (os.LookupEnv), and nothing else:
// it writes no file and prints nothing. The error, an *argsError, is the
// help (-h, code 0), a flag the flag package refused (with the usage,
// code 2), or a check that failed (code 2).
func parseArgs(args []string, env func(string) (string, bool)) (config, error) {
	var cfg config
	var out strings.Builder
	fs := declareFlags(&cfg, &out, env)
	if err := fs.Parse(args); err != nil {
		code := 2
		if errors.Is(err, flag.ErrHelp) {
			code = 0
		}
		return config{}, &argsError{code: code, text: out.String()}
	}
	cfg.graceSet, cfg.session.lingerSet = flagSet(fs, "grace"), flagSet(fs, "linger")
	cfg.commands = fs.Args()
	cfg.flags = args[:len(args)-len(cfg.commands)]
	if cfg.version {
		return cfg, nil
	}
	if err := cfg.check(dashDash(args, cfg.commands)); err != nil {
		return config{}, err
	}
	return cfg, nil
}

// declareFlags declares jobdeck's flags on a new flag set, each into its
// field of cfg (defaults from env where a variable sets one); the flag
// package's errors and the usage go to out.
func declareFlags(cfg *config, out io.Writer, env func(string) (string, bool)) *flag.FlagSet {
	fs := flag.NewFlagSet("jobdeck", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.BoolVar(&cfg.serve, "serve", false, "serve MCP tools (background, job_status, job_kill) on stdin/stdout instead of opening the console")
	fs.StringVar(&cfg.http, "http", "", "with --serve: serve streamable HTTP on this loopback address (127.0.0.1:PORT) instead of stdio")
	cfg.grace = fs.Duration("grace", jobs.DefaultGrace, "time between SIGTERM and SIGKILL when stopping a job (0: SIGKILL at once)")
	fs.Var(&cfg.structured, "structured", "with --serve: results carry structuredContent (JSON) beside the text, and tools an outputSchema, for clients that want typed results")
	sessionFlags(fs, &cfg.session, env)
	const procfile = "start each 'name: command' line of `PROCFILE` as a named job (in the Procfile's directory)"
	fs.StringVar(&cfg.procfile, "f", "", procfile)
	fs.StringVar(&cfg.procfile, "procfile", "", procfile)
	fs.BoolVar(&cfg.version, "version", false, "print jobdeck's version (module version and VCS revision) and exit")
	fs.Usage = func() { usage(fs, out) }
	return fs
}

// check refuses what the flags cannot mean together; ended tells whether
// the flags ended with "--" before the commands.
func (cfg *config) check(ended bool) error {
	switch {
	case cfg.structured.valued:
		return refuse("--structured takes no value (it was given %q): write --structured alone for typed results, or leave it out for text", cfg.structured.value)
	case cfg.structured.set && !cfg.serve:
		return refuse("--structured needs --serve: it asks the MCP server for typed results (try: jobdeck --serve --structured); the console has none")
	case cfg.http != "" && !cfg.serve:
		return refuse("--http needs --serve (try: jobdeck --serve --http 127.0.0.1:8765)")
	case cfg.http != "" && serve.CheckHTTPAddr(cfg.http) != nil:
		return refuse("--http %v", strings.TrimPrefix(serve.CheckHTTPAddr(cfg.http).Error(), "serve http: "))
	case cfg.serve && (len(cfg.commands) > 0 || cfg.procfile != ""):
		return refuse("--serve takes no commands; the agent starts jobs with the background tool")
	case model.CheckGrace(*cfg.grace, model.ErrBadSpec) != nil:
		return refuse("--grace %v is out of range; give 0 to %v (e.g. --grace 3s)", *cfg.grace, model.MaxGrace)
	case len(cfg.commands) > 0 && cfg.commands[0] == "sessions" && !ended:
		return refuse("sessions is a subcommand: give it first, without flags (jobdeck sessions, jobdeck sessions stop); to start a command named sessions, write jobdeck -- sessions")
	case len(cfg.commands) > 0 && cfg.commands[0] == "mcp" && !ended:
		return refuse("mcp is a subcommand: give it first (jobdeck mcp, jobdeck mcp --http); to start a command named mcp, write jobdeck -- mcp")
	}
	if err := cfg.session.check(); err != nil {
		return refuse("%v", err)
	}
	return nil
}

// setup does what must come before any mode runs, in order: takes the
// HTTP token (takeHTTPToken: a file made on first use, where it is said
// on stderr); moves the commands out of jobdeck's argv (hideCommands:
// a re-exec, after which this process reads them back and takes its
// name again); reads what is to start at launch (launchSpecs: a bad
// Procfile starts nothing). ok is false when jobdeck is to exit with
// code, having said why on stderr.
func setup(cfg *config, stderr io.Writer) (code int, ok bool) {
	token, ok := takeHTTPToken(cfg.http, stderr)
	if !ok {
		return 1, false
	}
	cfg.token = token
	commands := cfg.commands
	if launched, ok, err := launchCommands(); ok {
		// Re-executed by hideCommands: the commands come from its file.
		supervisor.SetProcessName(filepath.Base(os.Args[0]))
		if err != nil {
			fmt.Fprintf(stderr, "jobdeck: reading the commands to start: %v\n", err)
			return 2, false
		}
		commands = launched
	} else if len(commands) > 0 {
		hideCommands(cfg.flags, commands, stderr)
	}
	// Everything to start is read before anything starts.
	specs, from, err := launchSpecs(cfg.procfile, commands)
	if err != nil {
		fmt.Fprintf(stderr, "jobdeck: %v\n", err)
		return 2, false
	}
	cfg.specs, cfg.from = specs, from
	return 0, true
}

// usage is -h, written to w.
func usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "usage: jobdeck [flags] [-f Procfile] [-- 'command' ...]\n"+
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
		err = serveHTTP(ctx, table, cfg.http, cfg.token, cfg.structured.set, stderr)
	case cfg.serve:
		in, restore := agentStdin(stdin)
		err = serve.RunStream(ctx, table, in, stdout, serve.StreamOptions{Structured: cfg.structured.set})
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

// presenceFlag is a flag that takes no value (--structured): set says it
// was given; valued that it was given a value anyway (an empty one too:
// the flag package passes "true" for a flag given alone), value which, to
// refuse.
type presenceFlag struct {
	set, valued bool
	value       string
}

// String is the flag's default for -h: none.
func (f *presenceFlag) String() string { return "" }

// Set records the flag; a value other than the flag package's own "true"
// is kept to be refused.
func (f *presenceFlag) Set(v string) error {
	f.set = true
	if v != "true" {
		f.valued, f.value = true, v
	}
	return nil
}

// IsBoolFlag lets the flag be given without a value.
func (f *presenceFlag) IsBoolFlag() bool { return true }

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
