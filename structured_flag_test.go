//go:build unix

package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestStructuredFlag: --structured belongs to --serve and takes no value;
// on a console, or with a value, jobdeck says so and exits 2 before
// anything starts (nothing on stdout, no terminal asked for).
func TestStructuredFlag(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--structured"}, "--structured needs --serve"},
		{[]string{"--structured", "--", "make watch"}, "--structured needs --serve"},
		{[]string{"--serve", "--structured=x"}, `--structured takes no value (it was given "x")`},
		{[]string{"--serve", "--http", "127.0.0.1:0", "--structured=false"}, `--structured takes no value (it was given "false")`},
		{[]string{"--structured=yes"}, `--structured takes no value (it was given "yes")`},
		{[]string{"--serve", "--structured="}, `--structured takes no value (it was given "")`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(c.args, strings.NewReader(""), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.want) || stdout.Len() != 0 {
			t.Errorf("jobdeck %q: exit %d, stderr %q, stdout %q; want 2 and %q", c.args, code, stderr.String(), stdout.String(), c.want)
		}
		if strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
			t.Errorf("jobdeck %q: want one sentence, got %q", c.args, stderr.String())
		}
	}
}
