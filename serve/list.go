package serve

import (
	"context"
	"fmt"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// job_status without id: the list of jobs, or a wait on any of them.

// list is job_status without id: a line per job, within the budget.
func (s *server) list(req *mcp.CallToolRequest, budget int) (*mcp.CallToolResult, any, error) {
	return s.listResult(req, "", nil, s.core.List(), s.opts.now(), budget)
}

// listResult words a list of jobs after lead (a wait's note, or "") and
// marks the finished jobs it shows as told to the client; w is the wait's
// structured outcome.
func (s *server) listResult(req *mcp.CallToolRequest, lead string, w *Wait, list []model.Snapshot, now time.Time, budget int) (*mcp.CallToolResult, any, error) {
	l := listText(lead, list, s.core.Dropped(), now, budget, w, s.opts.structured)
	// The list shows these jobs' states: the client has seen them. The
	// jobs it leaves out are noted later, once.
	s.notes.take(s.noteKey(req), nil, l.jobs...)
	out := List{Jobs: l.out, More: l.left, Wait: w}
	if l.call != "" {
		out.Calls = []string{l.call}
	}
	return textResult(l.text), out, nil
}

// listBudget is the byte budget of a list: max_bytes, or the default.
func listBudget(in StatusArgs) (int, error) {
	if in.MaxBytes == nil {
		return model.DefaultResultBytes, nil
	}
	if err := model.CheckResultBytes(*in.MaxBytes); err != nil {
		return 0, coreFail(toolStatus, err)
	}
	return *in.MaxBytes, nil
}

// waitAny is job_status with wait and no id: it returns when any job ends
// (a job this client was not told of yet that had ended counts at once)
// or, with until, when a line of any job matches (after the line this
// client's last until wait on that job matched), with the list.
func (s *server) waitAny(ctx context.Context, req *mcp.CallToolRequest, in StatusArgs) (*mcp.CallToolResult, any, error) {
	key := s.noteKey(req)
	if in.Wait == nil {
		return nil, nil, fail(`until needs wait: give the most seconds to wait too, e.g. {"wait": 60, "until": %s}`, quotePattern(in.Until))
	}
	d, err := seconds(toolStatus, "wait", *in.Wait, model.MaxWait)
	if err != nil {
		return nil, nil, err
	}
	budget, err := listBudget(in)
	if err != nil {
		return nil, nil, err
	}
	now := s.opts.now()
	var w model.WaitResult
	var list []model.Snapshot
	if untold := s.notes.untold(key, s.core.List()); in.Until == "" && len(untold) > 0 {
		// A job ended since this client last looked: that is the end it
		// waits for.
		w, list = model.WaitResult{Reason: model.WaitEnded, Job: untold[0].ID}, s.core.List()
	} else {
		ctx, cancel := s.handlerContext(ctx)
		defer cancel()
		what := "any job to end"
		if in.Until != "" {
			what = "a line of any job to match " + quotePattern(in.Until)
		}
		defer s.progress(ctx, req, d.Seconds(), func(d time.Duration) string {
			return fmt.Sprintf("waiting %s for %s", compactSeconds(d.Truncate(time.Second)), what)
		})()
		w, list, err = s.core.WaitAny(ctx, model.AnyOptions{Wait: d, Until: in.Until, After: s.notes.matchCursors(key)})
		if err != nil {
			return nil, nil, coreFail(toolStatus, err)
		}
		now = s.opts.now()
	}
	ww := waitWords{until: in.Until, now: now, ending: s.ending()}
	for _, snap := range list {
		if snap.ID == w.Job {
			ww.job = "job " + plainString(snap.Label())
		}
	}
	if w.Reason == model.WaitMatched && w.Match != nil {
		seq := w.Match.Seq
		if w.Match.Partial {
			seq = lastSeq(list, w.Job)
		}
		ww.shown = w.Match.Seq > 0 && s.notes.wasShown(key, w.Job, w.Match.Seq)
		s.notes.matched(key, w.Job, seq)
	}
	return s.listResult(req, waitNote(&w, ww), structWait(&w, ww.shown, now, true), list, now, budget)
}

// lastSeq is the newest seq of job id in list.
func lastSeq(list []model.Snapshot, id model.JobID) uint64 {
	for _, snap := range list {
		if snap.ID == id {
			return snap.Lines
		}
	}
	return 0
}
