package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/jobdeck/jobdeck/model"
	"github.com/jobdeck/jobdeck/supervisor/wire"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Protocol is the version of what a session and its clients say to each
// other after the hello. It changes whenever that changes; the hello
// request and its answer keep their shape forever, so that any two
// versions can tell each other apart, and so does the control dialect
// (session/info, session/stop, and the fields of Info that `jobdeck
// sessions` shows), so that `jobdeck sessions stop` stops a session of
// any version.
const Protocol = 6

// Kind says what a client is; it decides what the connection carries after
// the hello (see the package doc).
type Kind string

// The kinds of clients.
const (
	KindConsole Kind = "console"
	KindMCP     Kind = "mcp"
	KindHTTP    Kind = "http"
	KindControl Kind = "control"
)

// validKind reports whether k is one of the client kinds.
func validKind(k Kind) bool {
	switch k {
	case KindConsole, KindMCP, KindHTTP, KindControl:
		return true
	}
	return false
}

// helloMethod is the method of the first request on every connection.
const helloMethod = "jobdeck/hello"

// maxHelloBytes bounds the hello line (a large environment, base64).
const maxHelloBytes = 8 << 20

// Hello is the first request of every client. Byte strings that may hold
// any bytes (environment, directory) travel as []byte (base64 in JSON).
type Hello struct {
	Protocol int    `json:"protocol"`
	Version  string `json:"version"`
	Kind     Kind   `json:"kind"`
	// Name is how the client is shown ("console"); agents get the MCP
	// client's name once it says it.
	Name string `json:"name,omitempty"`
	// PID is the client's process ID as it says it; the session trusts
	// the kernel's (SO_PEERCRED) instead where there is one.
	PID int `json:"pid,omitempty"`
	// Dir and Env are the client's working directory and environment:
	// jobs it starts run there and with that (package doc of jobs).
	Dir []byte   `json:"dir,omitempty"`
	Env [][]byte `json:"env,omitempty"`
	// HTTP is set for KindHTTP: where to serve and with which token.
	HTTP *HTTPParams `json:"http,omitempty"`
	// Grace, when set, is the grace of the jobs this client starts that
	// do not name their own (the client's --grace; the session's own
	// default applies otherwise).
	Grace *time.Duration `json:"grace,omitempty"`
	// Structured asks, for KindMCP and KindHTTP, for results with
	// structured content and tools with output schemas (the client's
	// --structured: serve.StreamOptions.Structured); without it the
	// client's MCP server answers in text alone.
	Structured bool `json:"structured,omitempty"`
}

// HTTPParams asks the session to serve MCP over streamable HTTP.
type HTTPParams struct {
	// Addr is a loopback host:port; port 0 picks a free one.
	Addr string `json:"addr"`
	// Token is the bearer token every request must carry.
	Token string `json:"token"`
}

// Welcome is the session's answer to a Hello it accepts.
type Welcome struct {
	Protocol int    `json:"protocol"`
	Version  string `json:"version"`
	// Client is the ID the session gave this connection.
	Client int `json:"client"`
	// Info describes the session as it is now.
	Info Info `json:"info"`
	// HTTPAddr is the address the session listens on (KindHTTP).
	HTTPAddr string `json:"http_addr,omitempty"`
}

// Info describes a live session, for the console's header and for
// `jobdeck sessions`.
type Info struct {
	Key      string    `json:"key"`
	Name     string    `json:"name,omitempty"`
	Worktree string    `json:"worktree"`
	PID      int       `json:"pid"`
	Started  time.Time `json:"started"`
	Version  string    `json:"version"`
	Protocol int       `json:"protocol"`
	// Clients are the attached clients, oldest first (control clients are
	// not listed).
	Clients []ClientInfo `json:"clients"`
	// Running counts live jobs; Jobs every job the table holds.
	Running int `json:"running"`
	Jobs    int `json:"jobs"`
	// Ending reports a session that closed its socket and is stopping
	// its jobs (its info file says so until it exits).
	Ending bool `json:"ending,omitempty"`
}

// Label is how messages name the session: its worktree, or its name (or
// its key, for a session whose info is not written yet).
func (i Info) Label() string {
	if i.Name == "" && i.Worktree == "" {
		return "session " + i.Key
	}
	return Target{Name: i.Name, Worktree: i.Worktree}.Label()
}

// Phrase names the session in a sentence (see Target.Phrase).
func (i Info) Phrase() string {
	if i.Name == "" && i.Worktree == "" {
		return i.Label()
	}
	return Target{Name: i.Name, Worktree: i.Worktree}.Phrase()
}

// ClientInfo is one attached client.
type ClientInfo struct {
	ID    int       `json:"id"`
	Kind  Kind      `json:"kind"`
	Name  string    `json:"name"`
	PID   int       `json:"pid,omitempty"`
	Since time.Time `json:"since"`
	// Nested: the client runs inside one of this session's own jobs (a job
	// that runs jobdeck): it does not keep the session alive, or its jobs
	// would keep themselves running forever. Linux only (the client's
	// ancestry in /proc).
	Nested bool `json:"nested,omitempty"`
	// InJob is the job it runs in, when Nested and the job is known.
	InJob *model.JobID `json:"in_job,omitempty"`
}

// versionData rides on a refused hello's error, so that the client can
// name both versions.
type versionData struct {
	Protocol int    `json:"protocol"`
	Version  string `json:"version"`
	Key      string `json:"key,omitempty"`
	Label    string `json:"label,omitempty"`
}

// Application error codes of the hello (JSON-RPC leaves -32000 to -32099
// to implementations).
const (
	codeVersion = -32001 // the protocols differ
	codeRefused = -32002 // another reason (ending session, bad kind)
)

// Version is this binary's version for people: the module version and,
// where the build recorded them, the VCS revision and "+dirty" for a
// modified tree ("(devel) 3e528b0a1c2d+dirty").
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " " + rev + dirty
	}
	return v
}

// writeMessage writes one JSON-RPC message as a line.
func writeMessage(w io.Writer, msg jsonrpc.Message) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// readLine reads one line of at most max bytes, without its line break
// (wire.ReadLine, "\r\n" too); a longer one is wire.ErrLineTooLong.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	line, err := wire.ReadLine(r, max)
	return bytes.TrimSuffix(line, []byte("\r")), err
}

// readHello reads and decodes the first request of a connection.
func readHello(r *bufio.Reader) (*jsonrpc.Request, Hello, error) {
	var h Hello
	line, err := readLine(r, maxHelloBytes)
	if err != nil {
		return nil, h, err
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, h, fmt.Errorf("not a JSON-RPC message: %w", err)
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != helloMethod || !req.IsCall() {
		return req, h, fmt.Errorf("the first message must be a %s request", helloMethod)
	}
	if err := json.Unmarshal(req.Params, &h); err != nil {
		return req, h, fmt.Errorf("bad %s params: %w", helloMethod, err)
	}
	return req, h, nil
}

// envStrings converts the hello's environment to strings.
func envStrings(env [][]byte) []string {
	if env == nil {
		return nil
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if s := string(kv); strings.Contains(s, "=") && !strings.ContainsRune(s, 0) {
			out = append(out, s)
		}
	}
	return out
}

// envBytes converts an environment for a hello.
func envBytes(env []string) [][]byte {
	out := make([][]byte, len(env))
	for i, kv := range env {
		out[i] = []byte(kv)
	}
	return out
}
