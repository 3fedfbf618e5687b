package serve

import "testing"

// TestShownClient: one rule for an MCP client's shown name, wherever it is
// shown (the job's owner, the console's "with …", `jobdeck sessions`).
func TestShownClient(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                                       "agent",
		"claude-code":                            "claude-code",
		"evil\x1b[31mRED\x1b]0;PWNED\x07\nline2": "evilRED⏎line2",
		"   ":                                    "agent",
	} {
		if got := ShownClient(in); got != want {
			t.Errorf("ShownClient(%q) = %q, want %q", in, got, want)
		}
	}
}
