//go:build unix

package main

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jobdeck/jobdeck/jobs"
	"github.com/jobdeck/jobdeck/session"
)

// TestParseArgs: what each command line asks for, and each refusal with
// its exit code and what it says, from parsing alone (parseArgs writes
// nothing and starts nothing).
func TestParseArgs(t *testing.T) {
	t.Parallel()
	grace := func(d time.Duration) *time.Duration { return &d }
	cases := []struct {
		name string
		args []string
		want config // compared when wantCode < 0
		// wantCode is the argsError's code, -1 for none; wantText a part
		// of its text.
		wantCode int
		wantText string
	}{
		{name: "console", args: nil, wantCode: -1,
			want: config{grace: grace(jobs.DefaultGrace), session: sessionOpts{linger: session.DefaultLinger}}},
		{name: "commands after --", args: []string{"--grace", "2s", "--", "make", "npm run dev"}, wantCode: -1,
			want: config{grace: grace(2 * time.Second), graceSet: true, session: sessionOpts{linger: session.DefaultLinger},
				flags: []string{"--grace", "2s", "--"}, commands: []string{"make", "npm run dev"}}},
		{name: "serve over HTTP in a named session", args: []string{"--serve", "--http", "127.0.0.1:8765", "--session", "web", "--linger", "10s"}, wantCode: -1,
			want: config{serve: true, http: "127.0.0.1:8765", grace: grace(jobs.DefaultGrace), session: sessionOpts{name: "web", linger: 10 * time.Second, lingerSet: true},
				flags: []string{"--serve", "--http", "127.0.0.1:8765", "--session", "web", "--linger", "10s"}}},
		{name: "a Procfile", args: []string{"-f", "Procfile", "--private"}, wantCode: -1,
			want: config{grace: grace(jobs.DefaultGrace), session: sessionOpts{private: true, linger: session.DefaultLinger}, procfile: "Procfile", flags: []string{"-f", "Procfile", "--private"}}},
		{name: "a command named sessions", args: []string{"--", "sessions"}, wantCode: -1,
			want: config{grace: grace(jobs.DefaultGrace), session: sessionOpts{linger: session.DefaultLinger}, flags: []string{"--"}, commands: []string{"sessions"}}},
		{name: "version", args: []string{"--version", "--http", "x"}, wantCode: -1,
			want: config{version: true, http: "x", grace: grace(jobs.DefaultGrace), session: sessionOpts{linger: session.DefaultLinger}, flags: []string{"--version", "--http", "x"}}},
		{name: "help", args: []string{"-h"}, wantCode: 0, wantText: "usage: jobdeck [flags]"},
		{name: "unknown flag", args: []string{"--nope"}, wantCode: 2, wantText: "flag provided but not defined: -nope"},
		{name: "http without serve", args: []string{"--http", "127.0.0.1:1"}, wantCode: 2, wantText: "jobdeck: --http needs --serve"},
		{name: "http not loopback", args: []string{"--serve", "--http", "0.0.0.0:8765"}, wantCode: 2, wantText: "jobdeck: --http "},
		{name: "serve with commands", args: []string{"--serve", "--", "make"}, wantCode: 2, wantText: "--serve takes no commands"},
		{name: "grace out of range", args: []string{"--grace", "-1s"}, wantCode: 2, wantText: "--grace -1s is out of range"},
		{name: "private and named", args: []string{"--private", "--session", "x"}, wantCode: 2, wantText: "--private and --session exclude each other"},
		{name: "linger out of range", args: []string{"--linger", "2m"}, wantCode: 2, wantText: "--linger 2m0s is out of range"},
		{name: "sessions after a flag", args: []string{"--grace", "1s", "sessions"}, wantCode: 2, wantText: "sessions is a subcommand"},
		{name: "mcp after a flag", args: []string{"--private", "mcp"}, wantCode: 2, wantText: "mcp is a subcommand"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseArgs(c.args, func(string) (string, bool) { return "", false })
			var refused *argsError
			if !errors.As(err, &refused) {
				if err != nil {
					t.Fatalf("error %v is not an *argsError", err)
				}
				if c.wantCode >= 0 {
					t.Fatalf("parsed %+v, want exit %d saying %q", got, c.wantCode, c.wantText)
				}
				if len(got.commands) == 0 {
					got.commands = nil // none, however the flag package says it
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Fatalf("config\n got %+v\nwant %+v", got, c.want)
				}
				return
			}
			if refused.code != c.wantCode || !strings.Contains(refused.text, c.wantText) || !strings.HasSuffix(refused.text, "\n") {
				t.Fatalf("exit %d, %q; want exit %d saying %q (one whole line or more)", refused.code, refused.text, c.wantCode, c.wantText)
			}
		})
	}
}
