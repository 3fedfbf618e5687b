package serve

import (
	"context"
	"fmt"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/words"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// restart is job_kill with restart: stop the job's tree (when it is live)
// and start the same command again, with the same name, directory and
// environment, as a new job. The result is the new job's report, after a
// line on how the old run ended; the old run is not noted again as a job
// that finished.
func (s *server) restart(ctx context.Context, req *mcp.CallToolRequest, id model.JobID, opts model.KillOptions) (*mcp.CallToolResult, any, error) {
	ctx, cancel := s.handlerContext(ctx)
	defer cancel()
	defer s.progress(ctx, req, 0, func(d time.Duration) string {
		return fmt.Sprintf("restarting job %s: %s", id, compactSeconds(d.Truncate(time.Second)))
	})()
	client := clientName(req)
	wasLive := false
	for _, old := range s.core.List() {
		wasLive = wasLive || old.ID == id && old.Live()
	}
	rep, err := s.core.Restart(ctx, id, model.RestartOptions{Grace: opts.Grace, By: opts.By})
	if err != nil {
		return nil, nil, coreFail(toolKill, err)
	}
	now := s.opts.now()
	head := fmt.Sprintf("restarted job %s as job %s", id, rep.Job.ID)
	for _, old := range s.core.List() {
		if old.ID == id {
			if wasLive && old.Stop != nil {
				// The stop this restart made (not one from before it).
				head += "; the old run " + words.StopNote(old.Stop, client, now, "")
			}
			// This result says how the old run ended.
			s.notes.take(s.noteKey(req), nil, old)
		}
	}
	// A restart is a start: its report shows the whole command.
	return s.finish(req, view{rep: rep, lead: head, full: true, budget: model.DefaultResultBytes})
}
