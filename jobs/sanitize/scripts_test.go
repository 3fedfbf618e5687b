package sanitize

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// runCase runs a case script and returns its stdout and stderr lines.
func runCase(t *testing.T, name string) [][]byte {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found; the case scripts need it")
	}
	script := testkit.ProcCase(t, name)
	cmd := exec.CommandContext(t.Context(), "bash", script)
	cmd.Env = append(os.Environ(), "PROC_CASE_MARKER=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bash %s: %v (stderr %q)", name, err, stderr.Bytes())
	}
	var lines [][]byte
	for _, out := range [][]byte{stdout.Bytes(), stderr.Bytes()} {
		out = bytes.TrimSuffix(out, []byte("\n"))
		lines = append(lines, bytes.Split(out, []byte("\n"))...)
	}
	return lines
}

// TestCase23Script runs the real script and checks that the table in
// cases_test.go holds exactly its labelled lines, byte for byte, and that
// every line it prints passes the invariants.
func TestCase23Script(t *testing.T) {
	t.Parallel()
	lines := runCase(t, "23-hostile-escapes.sh")
	table := map[string]string{}
	for _, it := range case23 {
		table[it.label] = it.line()
	}
	seen := map[string]bool{}
	for _, line := range lines {
		checkAll(t, line)
		rest, ok := bytes.CutPrefix(line, []byte(mark23+" ["))
		if !ok {
			if string(line) != mark23+" DONE" {
				t.Errorf("unexpected line %q", line)
			}
			continue
		}
		label, _, _ := strings.Cut(string(rest), "] >>")
		want, ok := table[label]
		if !ok {
			t.Errorf("item %q is not in the case23 table", label)
			continue
		}
		seen[label] = true
		if string(line) != want {
			t.Errorf("item %q: script prints %q, table has %q", label, line, want)
		}
	}
	for label := range table {
		if !seen[label] {
			t.Errorf("table item %q not printed by the script", label)
		}
	}
}

// TestCase24Script runs the real script and checks that every line it
// prints is a row of the case24 table.
func TestCase24Script(t *testing.T) {
	t.Parallel()
	lines := runCase(t, "24-bad-bytes.sh")
	table := map[string]bool{}
	for _, tc := range case24 {
		table[tc.in] = true
	}
	if len(lines) != len(case24) {
		t.Errorf("script printed %d lines, table has %d", len(lines), len(case24))
	}
	for _, line := range lines {
		if !table[string(line)] {
			t.Errorf("line %.80q is not in the case24 table", line)
		}
	}
}
