package serve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolError is an error a handler returns on purpose: its message is
// shown to the client as is (the middleware appends notes). Errors the SDK
// produces itself (argument validation) are not toolErrors and get the
// tool's argument help added.
type toolError struct{ err error }

func (e *toolError) Error() string { return e.err.Error() }
func (e *toolError) Unwrap() error { return e.err }

// fail returns a toolError with a formatted message.
func fail(format string, args ...any) error {
	return &toolError{fmt.Errorf(format, args...)}
}

// coreFail wraps an error of the core; the core's message says what to do
// next, and coreFail adds which tool does it.
func coreFail(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &toolError{fmt.Errorf("request cancelled before the job answered (%w); ask again", err)}
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

// background starts a job.
func (s *server) background(ctx context.Context, req *mcp.CallToolRequest, in BackgroundArgs) (*mcp.CallToolResult, *Report, error) {
	if strings.TrimSpace(in.Command) == "" {
		return nil, nil, fail(`command is empty: give the shell command to run, e.g. {"command": "npm run dev"}`)
	}
	if len(in.Command) > model.MaxCommandBytes {
		return nil, nil, fail("command is %d bytes, over the 1 MiB limit (%d bytes): write it to a script file and run that file instead",
			len(in.Command), model.MaxCommandBytes)
	}
	if err := checkDir(in.Cwd); err != nil {
		return nil, nil, err
	}
	spec := model.Spec{Command: in.Command, Name: strings.TrimSpace(in.Name), Dir: in.Cwd, NoTTY: in.TTY != nil && !*in.TTY}
	ctx, cancel := s.handlerContext(ctx)
	defer cancel()
	rep, err := s.core.Start(ctx, spec)
	if err != nil {
		return nil, nil, coreFail(err)
	}
	text := reportText(rep, "", 0)
	out := newReport(rep, s.opts.now())
	return s.finish(req, text, out, rep.Job), out, nil
}

// checkDir checks an absolute working directory; relative ones are left
// to the core, which resolves them against its own directory.
func checkDir(dir string) error {
	if dir == "" || !filepath.IsAbs(dir) {
		return nil
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return fail("cwd %q does not exist: give an existing directory, or leave cwd out to use jobdeck's directory", dir)
	case err != nil:
		return fail("cwd %q cannot be used (%v): give a directory you can read, or leave cwd out", dir, err)
	case !fi.IsDir():
		return fail("cwd %q is not a directory: give its directory (%q), or leave cwd out", dir, filepath.Dir(dir))
	}
	return nil
}

// status reports on one job, or lists every job without an id.
func (s *server) status(ctx context.Context, req *mcp.CallToolRequest, in StatusArgs) (*mcp.CallToolResult, StatusOutput, error) {
	if !in.ID.Given {
		if in.Lines != nil || in.Since != nil || in.Wait != nil || in.Until != "" {
			return nil, StatusOutput{}, fail(`lines, since, wait and until need an id: give the job ID or name, e.g. {"id": 2, "wait": 30}; job_status without id lists every job`)
		}
		return s.list(req)
	}
	sel, err := checkSelector(toolStatus, in.ID)
	if err != nil {
		return nil, StatusOutput{}, &toolError{err}
	}
	var opts model.StatusOptions
	if in.Lines != nil {
		if *in.Lines < 1 || *in.Lines > model.MaxStatusLines {
			return nil, StatusOutput{}, fail("lines is %d: give 1 to %d (default %d)", *in.Lines, model.MaxStatusLines, model.DefaultStatusLines)
		}
		opts.Lines = *in.Lines
	}
	if in.Since != nil {
		opts.Since, opts.HasSince = *in.Since, true
	}
	if in.Wait != nil {
		w := *in.Wait
		if math.IsNaN(w) || w < 0 || w > model.MaxWait.Seconds() {
			return nil, StatusOutput{}, fail("wait is %g seconds: give 0 to %g (seconds; fractions allowed)", w, model.MaxWait.Seconds())
		}
		opts.Wait = time.Duration(w * float64(time.Second))
	}
	if in.Until != "" {
		if opts.Wait <= 0 {
			return nil, StatusOutput{}, fail(`until needs wait: give the most seconds to wait too, e.g. {"id": %s, "wait": 30, "until": %s}`, jsonSelector(sel), quotePattern(in.Until))
		}
		re, err := regexp.Compile(in.Until)
		if err != nil {
			return nil, StatusOutput{}, fail("until is not a valid regular expression (%v): use Go RE2 syntax, e.g. \"ready|listening on\"; escape literal ( [ . * + ? with a backslash", err)
		}
		opts.Until = re
	}

	if opts.Until != nil && !opts.HasSince {
		// "A new line" is one this client has not been shown: lines that
		// came between its last look and this call count too.
		if id, err := s.core.Resolve(sel); err == nil {
			opts.Since, opts.HasSince = s.notes.cursor(req.Session, id), true
		}
	}
	ctx, cancel := s.handlerContext(ctx)
	defer cancel()
	if opts.Wait > 0 {
		what := "job " + sel + " to end"
		if opts.Until != nil {
			what += " or a line to match " + quotePattern(in.Until)
		}
		defer s.progress(ctx, req, opts.Wait.Seconds(), func(d time.Duration) string {
			return fmt.Sprintf("waiting %s for %s", compactSeconds(d.Truncate(time.Second)), what)
		})()
	}
	rep, err := s.core.Status(ctx, sel, opts)
	if err != nil {
		return nil, StatusOutput{}, coreFail(err)
	}
	text := reportText(rep, in.Until, opts.Wait)
	out := newReport(rep, s.opts.now())
	return s.finish(req, text, out, rep.Job), StatusOutput{Report: out}, nil
}

// list is job_status without id: a line per job.
func (s *server) list(req *mcp.CallToolRequest) (*mcp.CallToolResult, StatusOutput, error) {
	now := s.opts.now()
	list := s.core.List()
	// The list shows every job's state: the client has now seen them all.
	notes := s.notes.take(req.Session, list, list...)
	briefs := make([]Brief, 0, len(list))
	for _, snap := range list {
		briefs = append(briefs, newBrief(snap, now))
	}
	text := withNotes(listText(list, s.core.Dropped(), now), notes, now)
	return textResult(text), StatusOutput{Jobs: briefs}, nil
}

// kill stops a job and its tree.
func (s *server) kill(ctx context.Context, req *mcp.CallToolRequest, in KillArgs) (*mcp.CallToolResult, *Report, error) {
	sel, err := checkSelector(toolKill, in.ID)
	if err != nil {
		return nil, nil, &toolError{err}
	}
	var opts model.KillOptions
	if in.Grace != nil {
		g := *in.Grace
		if math.IsNaN(g) || g < 0 || g > maxGraceSeconds {
			return nil, nil, fail("grace is %g seconds: give 0 to %d (0 sends SIGKILL at once; default 5)", g, maxGraceSeconds)
		}
		opts.Grace, opts.HasGrace = time.Duration(g*float64(time.Second)), true
	}
	ctx, cancel := s.handlerContext(ctx)
	defer cancel()
	defer s.progress(ctx, req, 0, func(d time.Duration) string {
		return fmt.Sprintf("stopping job %s: %s", sel, compactSeconds(d.Truncate(time.Second)))
	})()
	rep, err := s.core.Kill(ctx, sel, opts)
	if err != nil {
		if rep.Text != "" {
			// The stop goes on; show where it stands.
			err = fmt.Errorf("%w\n\n%s", err, strings.TrimRight(rep.Text, "\n"))
		}
		return nil, nil, coreFail(err)
	}
	text := reportText(rep, "", 0)
	out := newReport(rep, s.opts.now())
	return s.finish(req, text, out, rep.Job), out, nil
}

// finish adds the notes of jobs that finished since the client last looked
// (other than job, which the result shows) to a report result.
func (s *server) finish(req *mcp.CallToolRequest, text string, out *Report, job model.Snapshot) *mcp.CallToolResult {
	now := s.opts.now()
	// The client has seen every line up to Next, unless the result left
	// older ones out (a tail of the newest lines): then "not shown yet"
	// still starts where it did.
	if out != nil && out.Skipped == 0 {
		s.notes.saw(req.Session, job.ID, out.Next)
	}
	notes := s.notes.take(req.Session, s.core.List(), job)
	for _, n := range notes {
		out.Finished = append(out.Finished, newBrief(n, now))
	}
	return textResult(withNotes(text, notes, now))
}

// textResult is a result whose content is text.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
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
