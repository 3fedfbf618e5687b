//go:build unix

package main

import (
	"strings"
	"testing"
	"time"
)

// TestLingerFromEnvironment: $JOBDECK_LINGER sets --linger's default, the
// flag still wins, and a value that is not a linger of 0s to 1m is refused
// with exit 2 and a sentence that names the variable.
func TestLingerFromEnvironment(t *testing.T) {
	for _, c := range []struct {
		env  string
		args []string
		want time.Duration
		bad  bool
	}{
		{env: "1s", want: time.Second},
		{env: "0s", want: 0},
		{env: "1s", args: []string{"--linger", "3s"}, want: 3 * time.Second},
		{env: "soon", bad: true},
		{env: "2m", bad: true},
		{env: "-1s", bad: true},
	} {
		t.Run(c.env+strings.Join(c.args, ""), func(t *testing.T) {
			t.Setenv(envLinger, c.env)
			var stdout, stderr strings.Builder
			cfg, code, ok := parseArgs(append([]string{"--serve"}, c.args...), &stdout, &stderr)
			if c.bad {
				if ok || code != 2 || !strings.Contains(stderr.String(), envLinger+"="+c.env+" is not a linger") {
					t.Errorf("ok %v, exit %d, stderr %q; want exit 2 naming %s", ok, code, stderr.String(), envLinger)
				}
				return
			}
			if !ok || cfg.so.linger != c.want {
				t.Errorf("ok %v (exit %d, %q), linger %v; want %v", ok, code, stderr.String(), cfg.so.linger, c.want)
			}
		})
	}
}
