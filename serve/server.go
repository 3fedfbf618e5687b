package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/jobdeck/jobdeck/model"
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
const instructions = `jobdeck runs shell commands as background jobs and keeps their output (the last 2000 lines each). background starts one (and can wait for it); job_status reads, greps and waits; job_kill stops a job with everything it started. Results are at most 16 KiB and say how to read what they left out. Jobs that finished since you last looked are noted at the end of every result, once.`

// Tool descriptions: product copy that teaches the common loops in a few
// lines each. tools/list stays under 4 KB (a test holds it there).
const (
	descBackground = `Run a shell command (bash) in the background: dev servers, watchers, builds, tests. Returns its report.
Start and wait in one call: {"command":"npm run dev","wait":60,"until":"ready|listening"} returns once a line matches; {"command":"go test ./...","wait":600} once it ends.
job_status reads it, job_kill stops it; at most 8 run at once.`
	descStatus = `A job's state and output ("> " stdout, "! " stderr). Without id: the list.
New lines: {"id":0,"since":N}, N from a result's [next: ...] call.
Wait for a line: {"id":0,"wait":30,"until":"ready"}; the first wait sees the whole output, later ones only lines after the last match.
Wait for any job: {"wait":600} returns when one ends (with until: prints a match).
Search: {"id":0,"grep":"FAIL|panic","context":2}. lines/head: newest/oldest N.
A result fits 16 KiB (max_bytes) and ends with the calls that read what it left out.
Long waits need a longer client request timeout.`
	descKill = `Stop a job and its whole process tree: SIGTERM, then SIGKILL after grace seconds (default: the job's own grace, %s for the jobs you start here). Returns once nothing of it runs, with the lines you were not shown yet. job_status still reads it. restart: true then starts it again as a new job.`
)

// graceCore is a Core that says the grace of the jobs it starts without
// one (jobdeck's --grace); job_kill's description states it.
type graceCore interface {
	DefaultGrace() time.Duration
}

// killDescription is job_kill's description with core's default grace
// (model.DefaultGrace when core does not say).
func killDescription(core Core) string {
	g := model.DefaultGrace
	if gc, ok := core.(graceCore); ok {
		g = gc.DefaultGrace()
	}
	words := compactSeconds(g)
	if g == 0 {
		words = "0 (SIGKILL at once)"
	}
	return fmt.Sprintf(descKill, words)
}

// argumentsHelp is what each tool takes, appended to argument errors.
var argumentsHelp = map[string]string{
	toolBackground: `background takes {"command": "<shell command>", "name"?: "<label>", "cwd"?: "<directory>", "tty"?: true|false, "wait"?: <seconds 0-600>, "until"?: "<regex>", "lines"?: 1-2000}`,
	toolStatus:     `job_status takes {"id"?: <job ID or "name">, "lines"?: 1-2000, "head"?: 1-2000, "since"?: <next cursor>, "wait"?: <seconds 0-600>, "until"?: "<regex>", "grep"?: "<regex>", "context"?: 0-20, "max_bytes"?: 1024-262144}`,
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
	// structured declares an output schema for each tool and gives each
	// result its structured content beside the text (--serve
	// --structured); without it a result is its text alone, the form
	// every agent client hands its model as it was written.
	structured bool
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
// job_status, job_kill) over core, whose results are text only. Connect it
// to any transport; each connection (MCP session) gets its own
// finished-job notes.
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
	var output any // a nil *jsonschema.Schema in it would be refused
	if opts.structured {
		output = outputSchema()
	}
	addTool(s, &mcp.Tool{
		Name:         toolBackground,
		Title:        "Run in the background",
		Description:  descBackground,
		InputSchema:  s.inputs[toolBackground],
		OutputSchema: output,
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint:    false,
			DestructiveHint: &yes, // a shell command can do anything
			OpenWorldHint:   &yes,
		},
	}, s.background)
	addTool(s, &mcp.Tool{
		Name:         toolStatus,
		Title:        "Job status and output",
		Description:  descStatus,
		InputSchema:  s.inputs[toolStatus],
		OutputSchema: output,
		Annotations: &mcp.ToolAnnotations{
			ReadOnlyHint:   true,
			IdempotentHint: true,
			OpenWorldHint:  &no,
		},
	}, s.status)
	addTool(s, &mcp.Tool{
		Name:         toolKill,
		Title:        "Stop a job's process tree",
		Description:  killDescription(core),
		InputSchema:  s.inputs[toolKill],
		OutputSchema: output,
		Annotations: &mcp.ToolAnnotations{
			DestructiveHint: &yes,
			IdempotentHint:  true,
			OpenWorldHint:   &no,
		},
	}, s.kill)
	return s
}

// addTool registers a tool whose handler takes its arguments decoded as
// In and returns its structured content as any value (nil, and not used,
// unless the server is structured). Unlike mcp.AddTool, it checks the
// arguments with explainArguments (the same rules as the schema, in plain
// words) and puts the structured content on the wire as it was
// marshalled, without decoding it again to validate it against the output
// schema: a report's lines are marshalled once.
func addTool[In any](s *server, t *mcp.Tool, h func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, any, error)) {
	schema := s.inputs[t.Name]
	s.mcp.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		raw := req.Params.Arguments
		var in In
		if msg := explainArguments(schema, raw); msg != "" {
			return errorResult(argumentError(msg)), nil
		}
		if err := json.Unmarshal(wholeNumbers(schema, raw), &in); err != nil {
			return errorResult(argumentError(err.Error())), nil
		}
		res, out, err := h(ctx, req, in)
		if err != nil {
			return errorResult(err), nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		if out != nil && s.opts.structured {
			b, err := marshalSized(out, textSize(res))
			if err != nil {
				return nil, err
			}
			res.StructuredContent = json.RawMessage(b)
		}
		return res, nil
	})
}

// argumentError is arguments that do not fit a tool's input schema. It is
// not a toolError: the middleware words it with the tool's argument help.
type argumentError string

func (e argumentError) Error() string { return `validating "arguments": ` + string(e) }

// errorResult is a tool error result carrying err.
func errorResult(err error) *mcp.CallToolResult {
	r := &mcp.CallToolResult{}
	r.SetError(err)
	return r
}

// marshalSized marshals v into a buffer sized for a JSON of about hint
// bytes plus some, so that a large result is not copied as its buffer
// doubles.
func marshalSized(v any, hint int) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(hint + hint/4 + 512)
	if err := json.NewEncoder(&b).Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// textSize is the bytes of a result's text contents.
func textSize(r *mcp.CallToolResult) int {
	n := 0
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			n += len(t.Text)
		}
	}
	return n
}
