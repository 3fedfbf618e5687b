package serve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolError is an error a handler returns on purpose: its message is
// shown to the client as is (the middleware appends notes). Errors the SDK
// produces itself (argument validation) are not toolErrors and get the
// tool's argument help added.
type toolError struct{ err error }

// Error returns the message shown to the client.
func (e *toolError) Error() string { return e.err.Error() }

// Unwrap returns the error the message was made from.
func (e *toolError) Unwrap() error { return e.err }

// fail returns a toolError with a formatted message.
func fail(format string, args ...any) error {
	return &toolError{fmt.Errorf(format, args...)}
}

// coreFail wraps an error of the core for tool; the core's message says
// what is wrong and what to give instead, and coreFail adds how to do it
// with the tools: which argument of which tool, or which tool.
func coreFail(tool string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &toolError{fmt.Errorf("request cancelled before the job answered (%w); ask again", err)}
	}
	if ie, ok := errors.AsType[*model.InputError](err); ok {
		if hint := fieldHint(tool, ie.Field); hint != "" {
			err = fmt.Errorf("%w%s", err, hint)
		}
		return &toolError{err}
	}
	switch {
	case errors.Is(err, model.ErrNotFound), errors.Is(err, model.ErrAmbiguous):
		err = fmt.Errorf("%w (job_status without id lists the jobs)", err)
	case errors.Is(err, model.ErrDuplicate):
		err = fmt.Errorf("%w (job_status reads that job; job_kill stops it)", err)
	case errors.Is(err, model.ErrLimit):
		err = fmt.Errorf("%w (job_kill stops a job)", err)
	}
	return &toolError{err}
}

// fieldHint says how to give a refused input to tool: the argument that
// carries it, or an example.
func fieldHint(tool, field string) string {
	switch field {
	case model.FieldCommand:
		return `; e.g. {"command": "npm run dev"}`
	case model.FieldName:
		return ` (background's name)`
	case model.FieldDir:
		return `; or leave cwd out to use jobdeck's directory`
	case model.FieldDefaultDir:
		return `; or give cwd, or restart this MCP server in a directory that exists`
	case model.FieldGrace:
		return fmt.Sprintf(" (%s's grace is in seconds, 0-300)", tool)
	case model.FieldSince:
		return fmt.Sprintf(" (%s's since: the next value of a result)", tool)
	case model.FieldWait:
		return fmt.Sprintf(" (%s's wait, in seconds)", tool)
	case model.FieldLines, model.FieldHead, model.FieldGrep, model.FieldContext, model.FieldUntil, model.FieldBytes:
		return fmt.Sprintf(" (%s's %s)", tool, field)
	}
	return ""
}

// background starts a job and returns its report, after waiting as
// job_status does when wait is given. A job whose shell could not start at
// all is a tool error that says why.
func (s *server) background(ctx context.Context, req *mcp.CallToolRequest, in BackgroundArgs) (*mcp.CallToolResult, any, error) {
	client, key := clientName(req), s.noteKey(req)
	// The read's arguments are checked before anything starts.
	// Every argument is checked before anything starts: a refused one
	// leaves no job behind to refuse the corrected retry as a duplicate.
	opts, err := statusOptions(toolBackground, StatusArgs{Lines: in.Lines, Wait: in.Wait, Until: in.Until}, "0")
	if err != nil {
		return nil, nil, err
	}
	if _, err := model.CheckStatus(opts); err != nil {
		return nil, nil, coreFail(toolBackground, err)
	}
	spec := model.Spec{Command: in.Command, Name: in.Name, Dir: in.Cwd, NoTTY: in.TTY != nil && !*in.TTY, Owner: client}
	ctx, cancel := s.handlerContext(ctx)
	defer cancel()
	rep, err := s.core.Start(ctx, spec)
	if err != nil {
		return nil, nil, coreFail(toolBackground, err)
	}
	if rep.Job.State == model.StateFailed {
		// The result shows this job's fate: it is not noted again.
		s.notes.take(key, nil, rep.Job)
		return nil, nil, fail("job %d failed to start: %s", rep.Job.ID, plainString(rep.Job.Err))
	}
	return s.report(ctx, req, toolBackground, rep.Job.ID, opts, in.Until, view{full: true})
}

// status reports on one job; without an id it lists every job, or with
// wait waits for any job.
func (s *server) status(ctx context.Context, req *mcp.CallToolRequest, in StatusArgs) (*mcp.CallToolResult, any, error) {
	if !in.ID.Given {
		if in.Lines != nil || in.Head != nil || in.Since != nil || in.Grep != "" || in.Context != nil {
			return nil, nil, fail(`lines, head, since, grep and context need an id: give the job ID or name, e.g. {"id": 2, "grep": "FAIL"}; without id, job_status lists every job, or with wait waits for any of them`)
		}
		if in.Wait != nil || in.Until != "" {
			return s.waitAny(ctx, req, in)
		}
		budget, err := listBudget(in)
		if err != nil {
			return nil, nil, err
		}
		return s.list(req, budget)
	}
	sel, err := checkSelector(toolStatus, in.ID)
	if err != nil {
		return nil, nil, &toolError{err}
	}
	opts, err := statusOptions(toolStatus, in, sel)
	if err != nil {
		return nil, nil, err
	}
	id, err := s.core.Resolve(sel)
	if err != nil {
		return nil, nil, coreFail(toolStatus, err)
	}
	ctx, cancel := s.handlerContext(ctx)
	defer cancel()
	v := view{grep: in.Grep, head: opts.Head, context: opts.Context}
	return s.report(ctx, req, toolStatus, id, opts, in.Until, v)
}

// report waits and reads as opts say (an until wait starts after the line
// this client's last one matched, or at the oldest line, unless since is
// given) and renders the result as v says.
func (s *server) report(ctx context.Context, req *mcp.CallToolRequest, tool string, id model.JobID, opts model.StatusOptions, until string, v view) (*mcp.CallToolResult, any, error) {
	key := s.noteKey(req)
	if opts.Until != "" && !opts.HasSince {
		opts.After, _ = s.notes.matchCursor(key, id)
		opts.HasAfter = true
	}
	if opts.Wait > 0 {
		what := "job " + id.String() + " to end"
		if opts.Until != "" {
			what += " or a line to match " + quotePattern(until)
		}
		defer s.progress(ctx, req, opts.Wait.Seconds(), func(d time.Duration) string {
			return fmt.Sprintf("waiting %s for %s", compactSeconds(d.Truncate(time.Second)), what)
		})()
	}
	if opts.MaxBytes > model.DefaultResultBytes {
		// A large result: collect what earlier ones left first, so that
		// its copies (the lines, the text, the JSON) reuse that memory
		// rather than grow the process by several times the result.
		runtime.GC()
	}
	rep, err := s.core.Status(ctx, id, opts)
	if err != nil {
		return nil, nil, coreFail(tool, err)
	}
	v.ww = waitWords{until: until, after: opts.After, hasAfter: opts.HasAfter || opts.HasSince, ending: s.ending()}
	if opts.HasSince && !opts.HasAfter {
		v.ww.after = opts.Since
	}
	if w := rep.Wait; w != nil && w.Reason == model.WaitMatched && w.Match != nil {
		seq := w.Match.Seq
		if w.Match.Partial {
			seq = rep.Job.Lines
		}
		v.ww.shown = w.Match.Seq > 0 && s.notes.wasShown(key, id, w.Match.Seq)
		s.notes.matched(key, id, seq)
	}
	if tool == toolBackground {
		v.ww.fromStart = sinceStart(rep)
	}
	v.rep, v.budget = rep, opts.MaxBytes
	return s.finish(req, v)
}

// statusOptions turns the read arguments of tool (job_status's, or
// background's) into the core's options, with the result's byte budget.
// The core checks the bounds (model.CheckStatus); only what cannot reach
// it in its own type (seconds that are no duration, a budget that is the
// result's) is checked here.
func statusOptions(tool string, in StatusArgs, sel string) (model.StatusOptions, error) {
	var opts model.StatusOptions
	if in.Lines != nil {
		opts.Lines = *in.Lines
		if opts.Lines == 0 {
			opts.Lines = -1 // given as 0: out of range, not the default
		}
	}
	if in.Head != nil {
		opts.Head = *in.Head
		if opts.Head == 0 {
			opts.Head = -1
		}
	}
	if in.Since != nil {
		opts.Since, opts.HasSince = *in.Since, true
	}
	if in.Context != nil {
		opts.Context = *in.Context
	}
	opts.Grep = in.Grep
	if in.Wait != nil {
		w, err := seconds(tool, "wait", *in.Wait, model.MaxWait)
		if err != nil {
			return opts, err
		}
		opts.Wait = w
	}
	if in.Until != "" && opts.Wait <= 0 {
		if tool == toolBackground {
			return opts, fail(`until needs wait: give the most seconds to wait too, e.g. {"command": "npm run dev", "wait": 30, "until": %s}`, quotePattern(in.Until))
		}
		return opts, fail(`until needs wait: give the most seconds to wait too, e.g. {"id": %s, "wait": 30, "until": %s}`, jsonSelector(sel), quotePattern(in.Until))
	}
	opts.Until = in.Until
	opts.MaxBytes = model.DefaultResultBytes
	if in.MaxBytes != nil {
		if err := model.CheckResultBytes(*in.MaxBytes); err != nil {
			return opts, coreFail(tool, err)
		}
		opts.MaxBytes = *in.MaxBytes
	}
	opts.LineBytes = lineBudget(opts.MaxBytes)
	return opts, nil
}

// seconds converts the seconds argument name of tool to a duration. NaN,
// infinite and far out-of-range values (which no duration holds) are
// refused here in the core's words; the rest is the core's to check
// against max.
func seconds(tool, name string, v float64, max time.Duration) (time.Duration, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 2*max.Seconds() {
		return 0, fail("%s's %s is %g seconds: give 0 to %g (seconds; fractions allowed)", tool, name, v, max.Seconds())
	}
	return time.Duration(v * float64(time.Second)), nil
}

// kill stops a job and its tree and reports the lines the client has not
// been shown yet.
func (s *server) kill(ctx context.Context, req *mcp.CallToolRequest, in KillArgs) (*mcp.CallToolResult, any, error) {
	sel, err := checkSelector(toolKill, in.ID)
	if err != nil {
		return nil, nil, &toolError{err}
	}
	client, key := clientName(req), s.noteKey(req)
	opts := model.KillOptions{By: client}
	if in.Grace != nil {
		g, err := seconds(toolKill, "grace", *in.Grace, model.MaxGrace)
		if err != nil {
			return nil, nil, err
		}
		opts.Grace = &g
	}
	id, err := s.core.Resolve(sel)
	if err != nil {
		return nil, nil, coreFail(toolKill, err)
	}
	if in.Restart {
		return s.restart(ctx, req, id, opts)
	}
	opts.Read = model.StatusOptions{MaxBytes: model.DefaultResultBytes, LineBytes: lineBudget(model.DefaultResultBytes)}
	if seen := s.notes.newest(key, id); seen > 0 {
		opts.Read.Since, opts.Read.HasSince = seen, true
	}
	ctx, cancel := s.handlerContext(ctx)
	defer cancel()
	defer s.progress(ctx, req, 0, func(d time.Duration) string {
		return fmt.Sprintf("stopping job %s: %s", id, compactSeconds(d.Truncate(time.Second)))
	})()
	asked := time.Now()
	rep, err := s.core.Kill(ctx, id, opts)
	found := ""
	if st := rep.Job.Stop; rep.StopJoined && st != nil {
		found = "stopping"
		if !st.Done.IsZero() && st.Done.Before(asked) {
			found = "stopped"
		}
	}
	if err != nil {
		if rep.Job.Command == "" {
			return nil, nil, coreFail(toolKill, err)
		}
		// The stop goes on; show where it stands, leaving the error's
		// words and the notes (a quarter) their room in the budget.
		budget := max(model.MinResultBytes, model.DefaultResultBytes*3/4-len(err.Error())-256)
		r := render(view{rep: rep, client: client, now: s.opts.now(), budget: budget, kill: true, found: found})
		return nil, nil, coreFail(toolKill, fmt.Errorf("%w\n\n%s", err, r.text))
	}
	return s.finish(req, view{rep: rep, budget: model.DefaultResultBytes, kill: true, found: found})
}

// finish renders a report result: the finished-job notes of this client
// (other than the job shown) go at its end, within the budget, and the
// lines it shows count as shown to the client.
func (s *server) finish(req *mcp.CallToolRequest, v view) (*mcp.CallToolResult, any, error) {
	key := s.noteKey(req)
	v.client, v.now, v.typed = clientName(req), s.opts.now(), s.opts.structured
	v.ww.now = v.now
	all := s.core.List()
	v.notes = s.notes.take(key, all, v.rep.Job)
	for _, j := range all {
		if j.RestartOf != nil && *j.RestartOf == v.rep.Job.ID {
			id := j.ID
			v.rerun = &id
		}
	}
	r := render(v)
	s.notes.saw(key, v.rep.Job.ID, r.shown)
	if r.out == nil {
		return textResult(r.text), nil, nil // not a nil *Report in an any
	}
	return textResult(r.text), r.out, nil
}

// textResult is a result whose content is text.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// ending is why the server ends its handlers' waits, once it does ("the
// session is ending"), else "".
func (s *server) ending() string {
	if s.opts.life.Err() == nil {
		return ""
	}
	if c := context.Cause(s.opts.life); errors.Is(c, errInputEnded) || errors.Is(c, errStopping) {
		return c.Error()
	}
	return errStopping.Error()
}

// handlerContext is ctx, also cancelled when the server stops.
func (s *server) handlerContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.opts.life, cancel)
	return ctx, func() { stop(); cancel() }
}

// progress sends a progress notification every opts.progressEvery while a
// request runs, when the client gave a progress token; total is the
// expected seconds (zero: unknown). The returned function stops it and
// returns once no notification can be sent any more.
func (s *server) progress(ctx context.Context, req *mcp.CallToolRequest, total float64, message func(time.Duration) string) func() {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		start := time.Now()
		tick := time.NewTicker(s.opts.progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				d := time.Since(start)
				// Best effort: a client that went away just misses it.
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: d.Seconds(), Total: total, Message: message(d),
				})
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// jsonSelector writes a selector as JSON for a hint: 2 or "web".
func jsonSelector(sel string) string {
	for _, r := range sel {
		if r < '0' || r > '9' {
			return `"` + model.OneLine(plainString(sel), 40) + `"`
		}
	}
	return sel
}
