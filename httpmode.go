package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/jobdeck/jobdeck/serve"
)

// tokenEnv names the environment variable that gives the HTTP token.
const tokenEnv = "JOBDECK_TOKEN"

// takeHTTPToken finds the token for --serve --http (when addr is not
// empty): $JOBDECK_TOKEN, or the user's token file, made on first use.
// It says on stderr where the token is (never the token itself), and
// removes JOBDECK_TOKEN from the environment, so that jobs do not inherit
// it. It reports false, having said why on stderr, when there is no
// usable token.
func takeHTTPToken(addr string, stderr io.Writer) (string, bool) {
	if addr == "" {
		return "", true
	}
	token, path, err := serve.HTTPToken(os.Getenv(tokenEnv))
	os.Unsetenv(tokenEnv)
	if err != nil {
		fmt.Fprintf(stderr, "jobdeck: no HTTP token: %v\n", err)
		return "", false
	}
	if path != "" {
		fmt.Fprintf(stderr, "jobdeck: HTTP clients must send the token in %s (Authorization: Bearer <token>); set %s to choose another\n", path, tokenEnv)
	} else {
		fmt.Fprintf(stderr, "jobdeck: HTTP clients must send the token from $%s (Authorization: Bearer <token>)\n", tokenEnv)
	}
	return token, true
}

// serveHTTP runs --serve --http addr with token until ctx ends; structured
// is --structured.
func serveHTTP(ctx context.Context, core serve.Core, addr, token string, structured bool, stderr io.Writer) error {
	return serve.RunHTTP(ctx, core, serve.HTTPOptions{
		Addr:       addr,
		Token:      token,
		Structured: structured,
		Log:        stderr,
		Ready:      func(a string) { fmt.Fprintf(stderr, "jobdeck: serving MCP on http://%s/mcp\n", a) },
	})
}
