package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/jobdeck/jobdeck/serve"
)

// defaultMCPAddr is the address `jobdeck mcp --http` configures when none
// is given: the one docs/http.md uses.
const defaultMCPAddr = "127.0.0.1:8765"

// mcpUsage is what `jobdeck mcp` takes, said by -h and by every refusal.
const mcpUsage = `usage: jobdeck mcp [--http [ADDR]]

Prints how to connect an MCP client (Claude Code, Codex, any other) to
this jobdeck binary. It writes nothing; copy what fits.

  (no flags)     the stdio server, jobdeck --serve, that the client starts
  --http [ADDR]  the HTTP front, jobdeck --serve --http ADDR
                 (a loopback host:port; default ` + defaultMCPAddr + `), token from $` + tokenEnv + `
  -h, --help     this text
`

// mcpOpts is what `jobdeck mcp` was asked for.
type mcpOpts struct {
	http bool   // configure the HTTP front instead of stdio
	addr string // with http: its loopback host:port
}

// errMCPUsage marks a command line `jobdeck mcp` does not take; the
// message says which argument.
var errMCPUsage = errors.New("jobdeck mcp")

// parseMCPArgs reads the arguments after `jobdeck mcp`: none, or --http
// (also -http) with an optional address, as the next argument or after
// '='. It returns help true for -h or --help. Anything else, and an
// address that is not loopback host:port with a fixed port, is an error
// wrapping errMCPUsage.
func parseMCPArgs(args []string) (o mcpOpts, help bool, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		switch {
		case a == "-h" || a == "--help" || a == "-help":
			return o, true, nil
		case (name == "-http" || name == "http") && strings.HasPrefix(a, "-") && !o.http:
			o.http, o.addr = true, defaultMCPAddr
			if hasValue {
				o.addr = value
			} else if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				o.addr = args[i]
			}
			if err := checkMCPAddr(o.addr); err != nil {
				return o, false, err
			}
		case strings.HasPrefix(a, "-"):
			return o, false, fmt.Errorf("%w: unknown or repeated flag %q", errMCPUsage, a)
		default:
			return o, false, fmt.Errorf("%w: unexpected argument %q", errMCPUsage, a)
		}
	}
	return o, false, nil
}

// checkMCPAddr accepts what --serve --http accepts, less port 0: a client
// needs the port the server will have.
func checkMCPAddr(addr string) error {
	if err := serve.CheckHTTPAddr(addr); err != nil {
		return fmt.Errorf("%w: --http %v", errMCPUsage, strings.TrimPrefix(err.Error(), "serve http: "))
	}
	if _, port, _ := net.SplitHostPort(addr); port == "0" {
		return fmt.Errorf("%w: --http %s: a client needs the server's port: give a fixed one, e.g. %s", errMCPUsage, addr, defaultMCPAddr)
	}
	return nil
}

// runMCP is `jobdeck mcp args…`: it prints the configurations for this
// binary and returns the exit code (2 for arguments it does not take).
func runMCP(args []string, stdout, stderr io.Writer) int {
	o, help, err := parseMCPArgs(args)
	if help {
		fmt.Fprint(stdout, mcpUsage)
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "%v\n\n%s", err, mcpUsage)
		return 2
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fmt.Fprintf(stderr, "jobdeck mcp: cannot find this binary's path (%v): give your MCP client the absolute path of jobdeck instead\n", err)
		return 1
	}
	if goRunBuild(exe) {
		fmt.Fprintf(stderr, "jobdeck mcp: this is go run's temporary build, gone when go run ends: build jobdeck (go build -o ~/.local/bin/jobdeck .) and run that binary's jobdeck mcp\n")
	}
	token, tokenSet := os.LookupEnv(tokenEnv)
	if o.http {
		fmt.Fprint(stdout, httpConfigs(exe, o.addr, tokenNote(token, tokenSet)))
	} else {
		fmt.Fprint(stdout, stdioConfigs(exe))
	}
	return 0
}

// goRunBuild tells whether exe is a binary `go run` built in a temporary
// directory (…/go-build…/exe/…), which is removed when go run exits.
func goRunBuild(exe string) bool {
	rel, err := filepath.Rel(os.TempDir(), exe)
	return err == nil && !strings.HasPrefix(rel, "..") && strings.Contains(rel, "go-build")
}

// stdioConfigs is the text of `jobdeck mcp` for the binary at exe (an
// absolute path).
func stdioConfigs(exe string) string {
	var b strings.Builder
	cmd := shellQuote(exe) + " --serve"
	fmt.Fprintf(&b, "An MCP client starts jobdeck's stdio server itself: %s\n", cmd)
	fmt.Fprintf(&b, "in the directory it works in, which picks the worktree's session.\n\n")
	fmt.Fprintf(&b, "Claude Code, run in the project's directory (add --scope project to write the project's .mcp.json):\n\n")
	fmt.Fprintf(&b, "claude mcp add jobdeck -- %s\n\n", cmd)
	fmt.Fprintf(&b, "Claude Code, .mcp.json in the project:\n\n")
	fmt.Fprintf(&b, "{\n  \"mcpServers\": {\n    \"jobdeck\": { \"type\": \"stdio\", \"command\": %s, \"args\": [\"--serve\"] }\n  }\n}\n\n", jsonString(exe))
	fmt.Fprintf(&b, "Codex, ~/.codex/config.toml:\n\n")
	fmt.Fprintf(&b, "[mcp_servers.jobdeck]\ncommand = %s\nargs = [\"--serve\"]\n\n", jsonString(exe))
	fmt.Fprintf(&b, "Any other stdio client: run %s in the project's directory;\n", cmd)
	fmt.Fprintf(&b, "it speaks MCP over stdin and stdout, and ends when its stdin does.\n\n")
	fmt.Fprintf(&b, "Over HTTP instead: jobdeck mcp --http\n")
	return b.String()
}

// tokenNote says what `jobdeck mcp --http` found in $JOBDECK_TOKEN (set
// tells whether it is set at all), never the token: "" when it is a token
// --serve --http takes, else how to set one.
func tokenNote(token string, set bool) string {
	const setOne = "export " + tokenEnv + "=$(openssl rand -hex 32)"
	switch {
	case !set || token == "":
		return fmt.Sprintf("%s is not set. Set it, in the shell that starts the server and in the one that\n"+
			"starts the client, before you use what follows:\n\n%s\n\n"+
			"(Without it, jobdeck --serve --http makes a token file and says where it is;\n"+
			"export %s=$(cat <that file>) then gives the client the same token.)\n\n", tokenEnv, setOne, tokenEnv)
	case serve.CheckToken(token) != nil:
		return fmt.Sprintf("%s is set, but jobdeck --serve --http refuses it: %v.\nSet another:\n\n%s\n\n",
			tokenEnv, strings.TrimPrefix(serve.CheckToken(token).Error(), serve.ErrBadToken.Error()+": "), setOne)
	}
	return ""
}

// httpConfigs is the text of `jobdeck mcp --http` for the binary at exe
// serving at addr; note is tokenNote's.
func httpConfigs(exe, addr, note string) string {
	var b strings.Builder
	url := "http://" + addr + "/mcp"
	fmt.Fprintf(&b, "jobdeck's HTTP front serves MCP at %s to clients that send the token in $%s.\n\n", url, tokenEnv)
	b.WriteString(note)
	fmt.Fprintf(&b, "Start the server in the project's directory (it picks the worktree's session), with %s set:\n\n", tokenEnv)
	fmt.Fprintf(&b, "%s --serve --http %s\n\n", shellQuote(exe), addr)
	fmt.Fprintf(&b, "Claude Code (the shell puts the token's value into Claude Code's configuration):\n\n")
	fmt.Fprintf(&b, "claude mcp add --transport http jobdeck %s --header \"Authorization: Bearer $%s\"\n\n", url, tokenEnv)
	fmt.Fprintf(&b, "Claude Code, .mcp.json in the project (the token stays in Claude Code's environment):\n\n")
	fmt.Fprintf(&b, "{\n  \"mcpServers\": {\n    \"jobdeck\": {\n      \"type\": \"http\",\n      \"url\": %s,\n"+
		"      \"headers\": { \"Authorization\": \"Bearer ${%s}\" }\n    }\n  }\n}\n\n", jsonString(url), tokenEnv)
	fmt.Fprintf(&b, "Codex, ~/.codex/config.toml (Codex reads the token from its environment):\n\n")
	fmt.Fprintf(&b, "[mcp_servers.jobdeck]\nurl = %s\nbearer_token_env_var = %q\n\n", jsonString(url), tokenEnv)
	fmt.Fprintf(&b, "Any other client: streamable HTTP at %s with the header\n", url)
	fmt.Fprintf(&b, "Authorization: Bearer <the token>, or ?token=<the token> on the URL if it cannot send headers.\n")
	return b.String()
}

// jsonString is s as a JSON string, which is also a TOML basic string:
// quotes, backslashes and control characters escaped, nothing else.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// shellSafe matches words a POSIX shell reads as they are.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./+:@%,=-]+$`)

// shellQuote is s as one POSIX shell word: as it is when nothing in it is
// special, else in single quotes (a single quote in s is closed, escaped
// and reopened).
func shellQuote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
