package serve

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestEndToEndExitReports: exit reports say what happened: a simple
// command is the leader itself (its signal death is named as such), a
// compound one reports the shell's 128+n with the signal named, and a stop
// adds no line the job did not print.
func TestEndToEndExitReports(t *testing.T) {
	t.Parallel()
	cs, cmd := startServe(t, &recorder{}, os.Stderr)
	defer func() { cs.Close(); waitExit(t, cmd, 30*time.Second) }()
	// One simple command: it is the leader, its own death is reported.
	_, text := ok(t, cs, toolBackground, map[string]any{"command": `bash -c 'kill -SEGV $$'`, "wait": 10})
	if !strings.HasPrefix(text, "job 0 killed by SIGSEGV") || strings.Contains(text, "Segmentation fault") {
		t.Errorf("simple command killed by SIGSEGV:\n%s", text)
	}
	// A compound command: the shell's 128+n, with the signal named.
	_, text = ok(t, cs, toolBackground, map[string]any{"command": `bash -c 'kill -SEGV $$'; exit $?`, "wait": 10})
	if !strings.HasPrefix(text, "job 1 exited 139 (128+SIGSEGV)") {
		t.Errorf("compound command:\n%s", text)
	}
	// A stop adds nothing the job did not print, simple or compound.
	for i, c := range []string{"sleep 30", "echo hi; sleep 30; echo after"} {
		ok(t, cs, toolBackground, map[string]any{"command": c})
		_, text := ok(t, cs, toolKill, map[string]any{"id": 2 + i, "grace": 2})
		if !strings.Contains(text, "killed by SIGTERM") || strings.Contains(text, "Terminated") || strings.Contains(text, "> after") {
			t.Errorf("stop of %q:\n%s", c, text)
		}
	}
}
