package serve

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/internal/testkit"
	"github.com/jobdeck/jobdeck/model"
)

// TestModelReadsTheBudget: through the real binary, the budget bounds what
// the model reads. By default a result is text alone, and a 600-line job
// of short lines read with lines 2000 comes whole; a job too big for the
// budget keeps its newest lines and ends with the call that reads the
// rest. With --structured the text still gets the whole budget, and the
// JSON its own.
func TestModelReadsTheBudget(t *testing.T) {
	t.Parallel()
	for _, typed := range []bool{false, true} {
		args := []string{"--private", "--grace", "1s"}
		if typed {
			args = append(args, "--structured")
		}
		cs, cmd := startServeIn(t, &recorder{}, os.Stderr, t.TempDir(), nil, args...)
		ok(t, cs, toolBackground, map[string]any{"command": `for i in $(seq 1 600); do echo "out $i"; done`, "wait": 60})
		res, text := ok(t, cs, toolStatus, map[string]any{"id": 0, "lines": 2000})
		read := testkit.ModelView(res)
		if n := strings.Count(text, "\n> out "); n != 600 || !strings.Contains(text, "\n> out 1\n") {
			t.Errorf("typed %v: the text shows %d of 600 lines:\n%.400s", typed, n, text)
		}
		switch {
		case !typed && read != text:
			t.Errorf("the model reads %d bytes, not the %d of the text alone", len(read), len(text))
		case typed && (len(read) > model.DefaultResultBytes || !json.Valid([]byte(read))):
			t.Errorf("typed: the model reads %d bytes of JSON (valid %v), over the budget", len(read), json.Valid([]byte(read)))
		}

		ok(t, cs, toolBackground, map[string]any{"command": `for i in $(seq 1 2000); do echo "a longer line of test output, number $i"; done`, "wait": 60})
		res, text = ok(t, cs, toolStatus, map[string]any{"id": 1, "lines": 2000})
		read = testkit.ModelView(res)
		if len(text) > model.DefaultResultBytes || len(read) > model.DefaultResultBytes {
			t.Errorf("typed %v: text %d bytes, the model reads %d: over %d", typed, len(text), len(read), model.DefaultResultBytes)
		}
		lines := strings.Split(text, "\n")
		last := lines[len(lines)-1]
		if !strings.Contains(text, "> a longer line of test output, number 2000\n") ||
			!strings.HasPrefix(last, "[… ") || !strings.Contains(last, `lines not shown (earlier): job_status {"id":1,"since":0,"head":`) {
			t.Errorf("typed %v: over budget, want the newest lines and the call that reads the rest last:\n…%s", typed, text[max(0, len(text)-300):])
		}

		// Colour-heavy lines: the budget counts the text shown, not the
		// escape sequences, and a cut never splits one.
		ok(t, cs, toolBackground, map[string]any{"command": colourLog, "wait": 60})
		_, text = ok(t, cs, toolStatus, map[string]any{"id": 2, "lines": 300})
		if n := strings.Count(text, "\n> \x1b"); n != 0 {
			t.Errorf("typed %v: %d lines show an escape", typed, n)
		}
		if n := strings.Count(text, "] INFO request "); n != 300 || strings.Contains(text, "not shown") {
			t.Errorf("typed %v: %d of 300 coloured lines shown:\n…%s", typed, n, text[max(0, len(text)-300):])
		}
		ok(t, cs, toolBackground, map[string]any{"command": colourLong, "wait": 60})
		_, text = ok(t, cs, toolStatus, map[string]any{"id": 3})
		if !strings.Contains(text, "> "+strings.Repeat("w", 100)+" END\n") || !strings.HasSuffix(text, "> PASS ok") {
			t.Errorf("typed %v: colour-heavy lines, want them whole as plain text:\n%s", typed, text)
		}
		cs.Close()
		waitExit(t, cmd, 30*time.Second)
	}
}

// colourLog prints 300 log lines of 32 bytes of text in 64 bytes with
// their colours (19.2 KB in all, over the default budget; 9.6 KB shown).
const colourLog = `for i in $(seq 100 399); do printf '\033[2m[12:00:%02d]\033[0m \033[32mINFO\033[0m request \033[1m%s\033[0m done\033[0m\033[K\n' $((i % 60)) $i; done`

// colourLong prints 100 'w's each in its own colour then " END" (1,104
// bytes, 104 shown), and 300 bold green prefixes then "PASS ok" (2,707
// bytes, 7 shown).
const colourLong = `for i in $(seq 100); do printf '\033[38;5;71mw'; done; echo ' END'; for i in $(seq 300); do printf '\033[1m\033[32m'; done; echo 'PASS ok'`
