package serve

import (
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"testing"
)

// RunHTTP on a port another process listens on says the port is in use
// and who holds it (Linux reads the holder from /proc), in the words of a
// job's port conflict, and what to do; not a bare "bind: address already
// in use".
func TestRunHTTPPortInUseNamesHolder(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	err = RunHTTP(t.Context(), &fakeCore{}, HTTPOptions{Addr: addr, Token: testToken, Ready: func(string) { t.Errorf("%s: listening", addr) }})
	if err == nil {
		t.Fatal("RunHTTP on a taken port succeeded")
	}
	want := []string{"port " + port + " was already in use", "another port"}
	if runtime.GOOS == "linux" {
		want = append(want, fmt.Sprintf("held by pid %d", os.Getpid()))
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("RunHTTP on a taken port: %v\nwant it to say %q", err, w)
		}
	}
}
