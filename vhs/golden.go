//go:build unix

package vhs

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/jobdeck/jobdeck/internal/testkit"
)

// ErrGoldenMismatch means a screenshot's text differs from its golden file
// (testkit's: run go test ./vhs -update if the change is intended).
var ErrGoldenMismatch = testkit.ErrGoldenMismatch

// ErrGoldenMissing means a screenshot has no golden file yet (create it
// with go test ./vhs -update).
var ErrGoldenMissing = testkit.ErrGoldenMissing

// Snapshot is the screen text at one Screenshot step.
type Snapshot struct {
	// Tape is the tape's name, Name the screenshot's (file base without
	// ".png").
	Tape, Name string
	// Cols and Rows are the screen size in cells.
	Cols, Rows int
	// Lines holds Rows right-trimmed lines.
	Lines []string
	// Cells holds the same screen as Rows rows of Cols cells, with their
	// colours and attributes, as Picture draws them.
	Cells [][]uv.Cell
}

// Header is the golden file's first line: tape, screenshot and grid, e.g.
// "# smoke.tape: colors.png at 80x24 cells".
func (s Snapshot) Header() string {
	return fmt.Sprintf("# %s.tape: %s.png at %dx%d cells", s.Tape, s.Name, s.Cols, s.Rows)
}

// Golden returns the golden file text: Header, then the Rows right-trimmed
// screen lines, each ending in "\n".
func (s Snapshot) Golden() string {
	var b strings.Builder
	b.WriteString(s.Header())
	b.WriteByte('\n')
	for _, l := range s.Lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// GoldenPath returns where the golden of screenshot name of tape lives under
// dir: dir/<tape>/<name>.golden.
func GoldenPath(dir, tape, name string) string {
	return filepath.Join(dir, tape, name+".golden")
}

// elapsedRe matches an elapsed time as jobdeck shows it ("0:03", "12:07",
// "1:02:03"; model.FormatElapsed) as a whole word.
var elapsedRe = regexp.MustCompile(`\b[0-9]+(?::[0-9][0-9]){1,2}\b`)

// ElapsedPlaceholder replaces every elapsed time in a golden comparison.
const ElapsedPlaceholder = "m:ss"

// NormalizeGolden returns golden text with every elapsed time ("0:03",
// "1:02:03") replaced by ElapsedPlaceholder, so a screenshot of running or
// finished jobs compares equal whatever the clock said. This is the only
// normalisation: pids, counters and everything else must be made still by
// the tape itself. A time under ten minutes keeps its width (4 cells), so
// columns stay where they were.
func NormalizeGolden(text string) string {
	return elapsedRe.ReplaceAllLiteralString(text, ElapsedPlaceholder)
}

// CheckGolden compares s with its golden file under dir (GoldenPath), both
// passed through NormalizeGolden. With update it writes the normalised text
// instead (creating directories) and returns nil. A difference returns
// ErrGoldenMismatch with a line-by-line diff ("-" golden, "+" got; rows are
// compared by position, as screens are fixed grids).
func CheckGolden(dir string, s Snapshot, update bool) error {
	return testkit.CompareGolden(GoldenPath(dir, s.Tape, s.Name), s.Golden(), update, NormalizeGolden)
}

// StaleGoldens returns the golden files under dir/<tape>/ that no screenshot
// in names produces (left over from a renamed or removed Screenshot).
func StaleGoldens(dir, tape string, names []string) []string {
	want := map[string]bool{}
	for _, n := range names {
		want[n+".golden"] = true
	}
	files, _ := filepath.Glob(filepath.Join(dir, tape, "*.golden"))
	var stale []string
	for _, f := range files {
		if !want[filepath.Base(f)] {
			stale = append(stale, f)
		}
	}
	return stale
}
