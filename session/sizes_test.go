//go:build unix

package session

import (
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// TestSizesSmallest: a job shown by several consoles gets the smallest
// size in each dimension; when a console leaves, the rest decide.
func TestSizesSmallest(t *testing.T) {
	var z sizes
	if got := z.set(1, 0, model.TermSize{Cols: 150, Rows: 40}); got != (model.TermSize{Cols: 150, Rows: 40}) {
		t.Fatalf("one console: %+v", got)
	}
	if got := z.set(2, 0, model.TermSize{Cols: 80, Rows: 50}); got != (model.TermSize{Cols: 80, Rows: 40}) {
		t.Fatalf("two consoles: %+v, want 80×40", got)
	}
	z.set(2, 1, model.TermSize{Cols: 60, Rows: 20})
	changed := z.drop(2)
	if changed[0] != (model.TermSize{Cols: 150, Rows: 40}) || len(changed) != 1 {
		t.Fatalf("console 2 left: %+v, want job 0 back to 150×40 and job 1 untouched", changed)
	}
	if len(z.drop(1)) != 0 || len(z.want) != 0 {
		t.Fatalf("everyone left: %+v", z.want)
	}
}

// TestSizesGrowBack: the job a console started at its pane's size grows
// back to it when a smaller console that showed it leaves (the starting
// console never had to resize it).
func TestSizesGrowBack(t *testing.T) {
	var z sizes
	z.set(1, 0, model.TermSize{Cols: 150, Rows: 40}) // console 1's start
	if got := z.set(2, 0, model.TermSize{Cols: 52, Rows: 12}); got != (model.TermSize{Cols: 52, Rows: 12}) {
		t.Fatalf("a smaller console: %+v", got)
	}
	if got := z.drop(2)[0]; got != (model.TermSize{Cols: 150, Rows: 40}) {
		t.Fatalf("the smaller console left: job 0 gets %+v, want 150×40 back", got)
	}
}
