package serve

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/jobdeck/jobdeck/internal/testkit"
)

// The test binary doubles as programs the tests run: a dev server (as a
// job's command, through a link named devserver) and a trivial go-sdk
// server (the baseline of the benchmarks, through a link named
// mcp-baseline).

// helperMain runs the program the binary was started as, if it was one
// of the helpers, and reports whether it did.
func helperMain() bool {
	switch filepath.Base(os.Args[0]) {
	case "devserver":
		devServer()
	case "mcp-baseline":
		baselineServer()
	default:
		return false
	}
	return true
}

// helperLink links the test binary into a fresh directory as name and
// returns the link's path.
func helperLink(t testing.TB, name string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// devServer serves HTTP on a free loopback port: it prints "listening on
// http://ADDR" on stdout, and "GET /path" on stderr for each request before
// it answers.
func devServer() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("listening on http://%s\n", ln.Addr())
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(os.Stderr, "%s %s\n", r.Method, r.URL.Path)
		io.WriteString(w, "hello\n")
	}))
}

// baselineServer is the go-sdk's plainest server on stdio: one tool,
// "reply", that returns a text of the size its argument asks for.
func baselineServer() { testkit.BaselineServer() }
