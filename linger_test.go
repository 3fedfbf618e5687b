//go:build unix

package main

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestLingerFromEnvironment: $JOBDECK_LINGER sets --linger's default, the
// flag still wins, and a value that is not a linger of 0s to 1m is refused
// with exit 2 and a sentence that names the variable.
func TestLingerFromEnvironment(t *testing.T) {
	t.Parallel()
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
			env := func(name string) (string, bool) { return c.env, name == envLinger }
			cfg, err := parseArgs(append([]string{"--serve"}, c.args...), env)
			var refused *argsError
			if c.bad {
				if !errors.As(err, &refused) || refused.code != 2 || !strings.Contains(refused.text, envLinger+"="+c.env+" is not a linger") {
					t.Errorf("error %v; want exit 2 naming %s", err, envLinger)
				}
				return
			}
			if err != nil || cfg.session.linger != c.want {
				t.Errorf("error %v, linger %v; want %v", err, cfg.session.linger, c.want)
			}
		})
	}
}
