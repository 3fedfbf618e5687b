//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// TestParseMCPArgs: jobdeck mcp takes nothing, --http with or without a
// loopback address, and -h; everything else is refused as usage.
func TestParseMCPArgs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want mcpOpts
		help bool
		bad  string // in the error; "" when the line is taken
	}{
		{args: nil, want: mcpOpts{}},
		{args: []string{"--http"}, want: mcpOpts{http: true, addr: defaultMCPAddr}},
		{args: []string{"-http"}, want: mcpOpts{http: true, addr: defaultMCPAddr}},
		{args: []string{"--http", "127.0.0.1:9000"}, want: mcpOpts{http: true, addr: "127.0.0.1:9000"}},
		{args: []string{"--http=[::1]:9000"}, want: mcpOpts{http: true, addr: "[::1]:9000"}},
		{args: []string{"--http", "localhost:80"}, want: mcpOpts{http: true, addr: "localhost:80"}},
		{args: []string{"-h"}, help: true},
		{args: []string{"--http", "--help"}, help: true, want: mcpOpts{http: true, addr: defaultMCPAddr}},
		{args: []string{"--htttp"}, bad: `unknown or repeated flag "--htttp"`},
		{args: []string{"--serve"}, bad: `unknown or repeated flag "--serve"`},
		{args: []string{"--http", "--http"}, bad: `repeated flag "--http"`},
		{args: []string{"claude"}, bad: `unexpected argument "claude"`},
		{args: []string{"--http", "127.0.0.1:9000", "extra"}, bad: `unexpected argument "extra"`},
		{args: []string{"--http", "0.0.0.0:8765"}, bad: "not a loopback address"},
		{args: []string{"--http", "127.0.0.1:0"}, bad: "give a fixed one"},
		{args: []string{"--http=nonsense"}, bad: "give host:port"},
		{args: []string{"--http="}, bad: "give host:port"},
	} {
		got, help, err := parseMCPArgs(tc.args)
		switch {
		case tc.bad != "":
			if err == nil || !errors.Is(err, errMCPUsage) || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("%q: error %v, want one with %q", tc.args, err, tc.bad)
			}
		case err != nil || help != tc.help || got != tc.want:
			t.Errorf("%q: got %+v help %v err %v, want %+v help %v", tc.args, got, help, err, tc.want, tc.help)
		}
	}
}

// TestStdioConfigs: every block names the binary by its absolute path,
// quoted as its language needs, and the JSON block parses.
func TestStdioConfigs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		exe, shell, quoted string
	}{
		{"/home/me/.local/bin/jobdeck", "/home/me/.local/bin/jobdeck", `"/home/me/.local/bin/jobdeck"`},
		{"/home/me/my tools/jobdeck", "'/home/me/my tools/jobdeck'", `"/home/me/my tools/jobdeck"`},
		{`/opt/it's "here"\jobdeck`, `'/opt/it'\''s "here"\jobdeck'`, `"/opt/it's \"here\"\\jobdeck"`},
	} {
		text := stdioConfigs(tc.exe)
		for _, want := range []string{
			"claude mcp add jobdeck -- " + tc.shell + " --serve\n",
			"[mcp_servers.jobdeck]\ncommand = " + tc.quoted + "\nargs = [\"--serve\"]\n",
			"Any other stdio client: run " + tc.shell + " --serve",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the text lacks %q:\n%s", tc.exe, want, text)
			}
		}
		var cfg struct {
			MCPServers map[string]struct {
				Type, Command string
				Args          []string
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(block(t, text, "{", "}\n")), &cfg); err != nil {
			t.Fatalf("%s: the .mcp.json block does not parse: %v\n%s", tc.exe, err, text)
		}
		if s := cfg.MCPServers["jobdeck"]; s.Type != "stdio" || s.Command != tc.exe || len(s.Args) != 1 || s.Args[0] != "--serve" {
			t.Errorf("%s: .mcp.json has %+v", tc.exe, s)
		}
	}
}

// block is the first piece of text from a line starting with open to the
// next line that is close.
func block(t *testing.T, text, open, close string) string {
	t.Helper()
	i := strings.Index(text, "\n"+open)
	j := strings.Index(text[i+1:], "\n"+close)
	if i < 0 || j < 0 {
		t.Fatalf("no block %q…%q in:\n%s", open, close, text)
	}
	return text[i+1 : i+1+j+1+len(close)]
}

// TestHTTPConfigs: the HTTP blocks point at the address, take the token
// from the environment by name, and the note says how to set a token
// only when there is no usable one.
func TestHTTPConfigs(t *testing.T) {
	t.Parallel()
	const good = "0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		name     string
		token    string
		set      bool
		wantNote string // "" for no note
	}{
		{"unset", "", false, "JOBDECK_TOKEN is not set"},
		{"empty", "", true, "JOBDECK_TOKEN is not set"},
		{"short", "abc", true, "refuses it: it is 3 bytes; give at least 16"},
		{"space", "0123456789 abcdef", true, "refuses it: byte 11 is not printable ASCII"},
		{"good", good, true, ""},
	} {
		note := tokenNote(tc.token, tc.set)
		if tc.wantNote == "" && note != "" || !strings.Contains(note, tc.wantNote) {
			t.Errorf("%s: note %q, want one with %q", tc.name, note, tc.wantNote)
		}
		if tc.wantNote != "" && !strings.Contains(note, "export JOBDECK_TOKEN=$(openssl rand -hex 32)") {
			t.Errorf("%s: the note does not say how to set a token: %q", tc.name, note)
		}
		if tc.token != "" && strings.Contains(note, tc.token) {
			t.Errorf("%s: the note prints the token: %q", tc.name, note)
		}
	}
	text := httpConfigs("/usr/local/bin/jobdeck", "127.0.0.1:9000", "")
	for _, want := range []string{
		"/usr/local/bin/jobdeck --serve --http 127.0.0.1:9000\n",
		`claude mcp add --transport http jobdeck http://127.0.0.1:9000/mcp --header "Authorization: Bearer $JOBDECK_TOKEN"`,
		"url = \"http://127.0.0.1:9000/mcp\"\nbearer_token_env_var = \"JOBDECK_TOKEN\"\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	var cfg struct {
		MCPServers map[string]struct {
			Type, URL string
			Headers   map[string]string
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(block(t, text, "{", "}\n")), &cfg); err != nil {
		t.Fatalf("the .mcp.json block does not parse: %v\n%s", err, text)
	}
	if s := cfg.MCPServers["jobdeck"]; s.Type != "http" || s.URL != "http://127.0.0.1:9000/mcp" || s.Headers["Authorization"] != "Bearer ${JOBDECK_TOKEN}" {
		t.Errorf(".mcp.json has %+v", s)
	}
}

// TestMCPCommand runs the built binary's jobdeck mcp, through a symlink,
// in a directory that is no worktree, with a home and runtime directory
// of the test's own: it names the binary's real path, prints the HTTP
// blocks without the token, refuses a flag it does not take with exit 2
// and its usage, and writes no file anywhere it could.
func TestMCPCommand(t *testing.T) {
	t.Parallel()
	bin, err := filepath.EvalSymlinks(testkit.Jobdeck(t))
	if err != nil {
		t.Fatal(err)
	}
	dir, home, runtime := t.TempDir(), t.TempDir(), t.TempDir()
	link := filepath.Join(t.TempDir(), "jd")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	const token = "an-http-token-of-this-test-0123456789"
	jobdeck := func(env []string, args ...string) (int, string, string) {
		cmd := exec.Command(link, args...)
		cmd.Dir = dir
		cmd.Env = append([]string{"HOME=" + home, "XDG_RUNTIME_DIR=" + runtime, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + runtime}, env...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		_ = cmd.Run()
		return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
	}
	code, out, errOut := jobdeck(nil, "mcp")
	if code != 0 || errOut != "" || !strings.Contains(out, "claude mcp add jobdeck -- "+shellQuote(bin)+" --serve\n") {
		t.Errorf("jobdeck mcp: exit %d, stderr %q, stdout:\n%s\nwant exit 0 and the binary's real path %s", code, errOut, out, bin)
	}
	code, out, _ = jobdeck(nil, "mcp", "--http")
	if code != 0 || !strings.Contains(out, "JOBDECK_TOKEN is not set") || !strings.Contains(out, shellQuote(bin)+" --serve --http "+defaultMCPAddr) {
		t.Errorf("jobdeck mcp --http without a token: exit %d, stdout:\n%s", code, out)
	}
	code, out, errOut = jobdeck([]string{"JOBDECK_TOKEN=" + token}, "mcp", "--http", "127.0.0.1:9100")
	if code != 0 || strings.Contains(out+errOut, token) || strings.Contains(out, "not set") || !strings.Contains(out, "http://127.0.0.1:9100/mcp") {
		t.Errorf("jobdeck mcp --http with a token: exit %d, stderr %q, stdout:\n%s\nwant exit 0, the address, no note and never the token", code, errOut, out)
	}
	code, out, errOut = jobdeck(nil, "mcp", "--stdio")
	if code != 2 || out != "" || !strings.Contains(errOut, `"--stdio"`) || !strings.Contains(errOut, "usage: jobdeck mcp [--http [ADDR]]") {
		t.Errorf("jobdeck mcp --stdio: exit %d, stdout %q, stderr %q; want exit 2 and the usage on stderr", code, out, errOut)
	}
	for _, d := range []string{dir, home, runtime} {
		if entries, _ := os.ReadDir(d); len(entries) > 0 {
			t.Errorf("jobdeck mcp wrote into %s: %v", d, entries)
		}
	}
}

// TestGoRunBuild: a binary in go run's temporary build directory is told
// apart from an installed one.
func TestGoRunBuild(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		exe  string
		want bool
	}{
		{filepath.Join(os.TempDir(), "go-build123456", "b001", "exe", "jobdeck"), true},
		{"/home/me/.local/bin/jobdeck", false},
		{filepath.Join(os.TempDir(), "tools", "jobdeck"), false},
	} {
		if got := goRunBuild(tc.exe); got != tc.want {
			t.Errorf("goRunBuild(%q) = %v, want %v", tc.exe, got, tc.want)
		}
	}
}
