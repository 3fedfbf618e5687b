//go:build unix

package serve

import (
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/model"
)

// TestEndToEndBackgroundChecksFirst: background refuses a bad read
// argument (until not a regex, until over 4 KiB, until without wait)
// before it starts anything, naming background's argument; the
// corrected retry with the same name then starts the one job.
func TestEndToEndBackgroundChecksFirst(t *testing.T) {
	t.Parallel()
	cs, _ := startServe(t, &recorder{}, &recorder{})
	mark := marker(t)
	command := "export " + mark + "; echo ready; sleep 30"
	for _, c := range []struct {
		name string
		args map[string]any
		want []string
	}{
		{"bad until", map[string]any{"until": "ready(", "wait": 5}, []string{"until is not a valid regular expression", "(background's until)"}},
		{"huge until", map[string]any{"until": strings.Repeat("a", model.MaxPatternBytes+1), "wait": 5}, []string{"over the 4096-byte limit", "(background's until)"}},
		{"until without wait", map[string]any{"until": "ready"}, []string{"until needs wait", `"command"`}},
	} {
		args := map[string]any{"command": command, "name": "web"}
		for k, v := range c.args {
			args[k] = v
		}
		msg := fails(t, cs, toolBackground, args)
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: message %q does not contain %q", c.name, shorten(msg), w)
			}
		}
		if strings.Contains(msg, "job_status's") {
			t.Errorf("%s: the message names job_status's argument: %q", c.name, shorten(msg))
		}
	}
	_, text := ok(t, cs, toolStatus, map[string]any{})
	if !strings.HasPrefix(text, "no jobs") {
		t.Fatalf("refused starts left jobs behind:\n%s", text)
	}
	_, text = ok(t, cs, toolBackground, map[string]any{"command": command, "name": "web", "until": "ready", "wait": 10})
	if !strings.Contains(text, "wait: matched line 1") {
		t.Errorf("the corrected retry:\n%s", text)
	}
	ok(t, cs, toolKill, map[string]any{"id": "web", "grace": 0})
	checkNoLeftovers(t, mark)
}
