package jobs

import (
	"slices"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/model"
)

// TestFrameSkipsWhatWasSeen: Frame lists every job and reads each ring
// asked for, except one whose Seen is the job's progress as listed, which
// it answers Same without reading; a job that printed since, or that is
// gone, is read (or reported) as ReadMany does.
func TestFrameSkipsWhatWasSeen(t *testing.T) {
	t.Parallel()
	tb := newTable(t, Options{})
	quiet := start(t, tb, model.Spec{Command: "echo one; echo two; sleep 600"}).Job.ID
	waitFor(t, 10*time.Second, "two lines", func() bool { return snap(t, tb, quiet).Lines == 2 })
	seen := model.ProgressOf(snap(t, tb, quiet))
	old := model.Progress{Lines: 1, Bytes: 4}
	reads := []model.JobRead{
		{ID: quiet, Req: model.ReadRequest{Tail: true, Limit: 10}, Seen: &seen},
		{ID: quiet, Req: model.ReadRequest{Tail: true, Limit: 10}, Seen: &old},
		{ID: quiet, Req: model.ReadRequest{Tail: true, Limit: 10}},
		{ID: 99, Req: model.ReadRequest{Tail: true, Limit: 10}, Seen: &seen},
	}
	list, pages := tb.Frame(reads)
	if len(list) != 1 || list[0].ID != quiet {
		t.Fatalf("Frame listed %v, want job %d alone", list, quiet)
	}
	if !pages[0].Same || len(pages[0].Page.Lines) != 0 {
		t.Errorf("a read seen at the job's progress: %+v, want Same and nothing read", pages[0])
	}
	for i := 1; i <= 2; i++ {
		if got := lineTexts(pages[i].Page); pages[i].Same || !slices.Equal(got, []string{"one", "two"}) {
			t.Errorf("read %d: Same %v, lines %q, want the two lines", i, pages[i].Same, got)
		}
	}
	if pages[3].Same || pages[3].Err != model.ErrorCode(model.ErrNotFound) {
		t.Errorf("a job that is not there: %+v, want Err %q", pages[3], model.ErrorCode(model.ErrNotFound))
	}
	if many := tb.ReadMany(reads[:1]); many[0].Same || len(many[0].Page.Lines) != 2 {
		t.Errorf("ReadMany must ignore Seen: %+v", many[0])
	}
}
