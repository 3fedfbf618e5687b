package serve

import (
	"context"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool names.
const (
	toolBackground = "background"
	toolStatus     = "job_status"
	toolKill       = "job_kill"
)

// version is what the server reports as its implementation version.
const version = "0.1.0"

// instructions is the server's hint to clients on how the tools fit
// together.
const instructions = `jobdeck runs shell commands as background jobs and keeps their output (the last 2000 lines each).
background starts one and returns its id; job_status reads it (since = the next cursor of the last result reads only newer lines; wait + until waits for a line such as "ready"); job_kill stops it with everything it started.
Jobs that finished since you last looked are noted at the end of every result, once.`

// Tool descriptions: product copy, short, saying how the tools relate.
const (
	descBackground = `Start a shell command (bash) in the background and return its report: job id, state and first output lines. Use it for dev servers, watchers, long builds and test runs. Read on with job_status (since = next cursor; wait + until to wait for a line such as "ready"); stop it and everything it started with job_kill. At most 8 jobs run at once.`
	descStatus     = `Report on a job: header ("job 2 exited 1 0:14 make test"), then its output lines ("> " stdout, "! " stderr) and the next cursor. id is the job ID (number or string) or its name; without id, one line per job. lines: newest N (default 50, max 2000). since: only lines after that cursor. wait: seconds (max 600) to wait until the job ends (its leader and everything it left running) or, with until (a regex), until a line you have not been shown yet (or, with since, a line after since) matches; the result says which happened.`
	descKill       = `Stop a job and its whole process tree: SIGTERM, then SIGKILL after grace seconds (default: jobdeck's --grace, 5 unless set). Returns once nothing of the job runs, with the final report; its output stays readable with job_status. On a finished job it just returns the final report. With restart: true it then starts the same command again (same name, cwd, environment) and returns the new job's report.`
)

// argumentsHelp is what each tool takes, appended to argument errors.
var argumentsHelp = map[string]string{
	toolBackground: `background takes {"command": "<shell command>", "name"?: "<label>", "cwd"?: "<directory>", "tty"?: true|false}`,
	toolStatus:     `job_status takes {"id"?: <job ID or "name">, "lines"?: 1-2000, "since"?: <next cursor>, "wait"?: <seconds 0-600>, "until"?: "<regex>"}`,
	toolKill:       `job_kill takes {"id": <job ID or "name">, "grace"?: <seconds 0-300>, "restart"?: true}`,
}

// options tune a server; zero fields take defaults.
type options struct {
	// life ends the handlers' waits when the server stops (stdio EOF or
	// shutdown); nil means never.
	life context.Context
	// progressEvery is the interval of progress notifications; zero means
	// one second.
	progressEvery time.Duration
	// now is the clock for elapsed times; nil means time.Now.
	now func() time.Time
	// onClient is told the client's name once it is known (StreamOptions).
	onClient func(name string)
}

// server holds the tools' state: the core and what each session was told.
type server struct {
	core  Core
	opts  options
	mcp   *mcp.Server
	notes notebook
	// inputs are the tools' input schemas, to explain argument errors.
	inputs map[string]*jsonschema.Schema
}

// NewServer returns an MCP server with jobdeck's tools (background,
// job_status, job_kill) over core. Connect it to any transport; each
// connection (MCP session) gets its own finished-job notes.
func NewServer(core Core) *mcp.Server {
	return newServer(core, options{}).mcp
}

// newServer builds the server with the given options.
func newServer(core Core, opts options) *server {
	if opts.life == nil {
		opts.life = context.Background()
	}
	if opts.progressEvery <= 0 {
		opts.progressEvery = time.Second
	}
	if opts.now == nil {
		opts.now = time.Now
	}
	s := &server{core: core, opts: opts, inputs: map[string]*jsonschema.Schema{
		toolBackground: backgroundInputSchema(),
		toolStatus:     statusInputSchema(),
		toolKill:       killInputSchema(),
	}}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "jobdeck", Title: "jobdeck", Version: version},
		&mcp.ServerOptions{Instructions: instructions})
	s.mcp.AddReceivingMiddleware(s.middleware)
	if opts.onClient != nil {
		s.mcp.AddReceivingMiddleware(clientNamer(opts.onClient))
	}

	no, yes := false, true
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:         toolBackground,
		Title:        "Run a command in the background",
		Description:  descBackground,
		InputSchema:  s.inputs[toolBackground],
		OutputSchema: reportOutputSchema(),
		Annotations: &mcp.ToolAnnotations{
			Title:           "Run a command in the background",
			ReadOnlyHint:    false,
			DestructiveHint: &yes, // a shell command can do anything
			OpenWorldHint:   &yes,
		},
	}, s.background)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:         toolStatus,
		Title:        "Job status and output",
		Description:  descStatus,
		InputSchema:  s.inputs[toolStatus],
		OutputSchema: statusOutputSchema(),
		Annotations: &mcp.ToolAnnotations{
			Title:          "Job status and output",
			ReadOnlyHint:   true,
			IdempotentHint: true,
			OpenWorldHint:  &no,
		},
	}, s.status)
	mcp.AddTool(s.mcp, &mcp.Tool{
		Name:         toolKill,
		Title:        "Stop a job and its process tree",
		Description:  descKill,
		InputSchema:  s.inputs[toolKill],
		OutputSchema: reportOutputSchema(),
		Annotations: &mcp.ToolAnnotations{
			Title:           "Stop a job and its process tree",
			DestructiveHint: &yes,
			IdempotentHint:  true,
			OpenWorldHint:   &no,
		},
	}, s.kill)
	return s
}
