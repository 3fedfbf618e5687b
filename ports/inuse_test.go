package ports

import (
	"slices"
	"testing"
)

// TestInUse: the wordings of common runtimes are recognised and their port
// found; ordinary lines (clocks, addresses, the word "use") are not.
func TestInUse(t *testing.T) {
	cases := []struct {
		line string
		port int
		ok   bool
	}{
		// Go (net/http, net.Listen).
		{"listen tcp :8080: bind: address already in use", 8080, true},
		{"2024/05/01 12:03:04 listen tcp 127.0.0.1:5000: bind: address already in use", 5000, true},
		{"listen tcp [::1]:9090: bind: address already in use", 9090, true},
		{"listen tcp4 0.0.0.0:81: bind: address already in use", 81, true},
		// Node (http, express, next).
		{"Error: listen EADDRINUSE: address already in use :::3000", 3000, true},
		{"Error: listen EADDRINUSE: address already in use 127.0.0.1:3001", 3001, true},
		{"  code: 'EADDRINUSE',", 0, true},
		{"  port: 3000", 0, false},
		// Vite, Spring, Flask/werkzeug, Django.
		{"error when starting dev server:", 0, false},
		{"Error: Port 5173 is already in use", 5173, true},
		{"Port 5173 is in use, trying another one...", 5173, true},
		{"Web server failed to start. Port 8080 was already in use.", 8080, true},
		{"Port 5000 is in use by another program. Either identify and stop that program, or start the server with a different port.", 5000, true},
		{"Error: That port is already in use.", 0, true},
		// Python.
		{"OSError: [Errno 98] Address already in use", 0, true},
		{"ERROR:    [Errno 98] error while attempting to bind on address ('127.0.0.1', 8000): address already in use", 8000, true},
		// Ruby (puma), nginx, Rust.
		{`Address already in use - bind(2) for "0.0.0.0" port 3000 (Errno::EADDRINUSE)`, 3000, true},
		{"nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)", 80, true},
		{"Error: Os { code: 98, kind: AddrInUse, message: \"Address already in use\" }", 0, true},
		// Colours around the words.
		{"\x1b[31mError:\x1b[39m Port \x1b[1m4173\x1b[22m is already in use", 4173, true},
		// Not a conflict.
		{"GET /index.html 200 12:03:04", 0, false},
		{"Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...", 0, false},
		{"the house is in use", 0, false},
		{"", 0, false},
		// A port out of range is not a port.
		{"listen tcp :99999: bind: address already in use", 0, true},
	}
	for _, c := range cases {
		port, ok := InUse([]byte(c.line))
		if port != c.port || ok != c.ok {
			t.Errorf("InUse(%q) = %d, %v; want %d, %v", c.line, port, ok, c.port, c.ok)
		}
	}
}

// TestNamed: the ports a command names, in order, without repeats.
func TestNamed(t *testing.T) {
	cases := []struct {
		text string
		want []int
	}{
		{"python3 -m http.server 8000", []int{8000}},
		{"python3 -m http.server --bind 127.0.0.1 8001", []int{8001}},
		{"npm run dev -- --port 5174", []int{5174}},
		{"PORT=4000 node server.js", []int{4000}},
		{"next dev -p 3001", []int{3001}},
		{"go run . -addr 127.0.0.1:8080 && curl localhost:8080", []int{8080}},
		{"caddy file-server --listen :2015; echo port=9000", []int{2015, 9000}},
		{"sleep 12:03", nil},
		{"make -j4 build", nil},
		{"", nil},
	}
	for _, c := range cases {
		if got := Named(c.text); !slices.Equal(got, c.want) {
			t.Errorf("Named(%q) = %v; want %v", c.text, got, c.want)
		}
	}
}

// FuzzInUse: no input makes InUse or Named panic, a port found is a port,
// and InUse never finds a port in a line its cheap test turns away.
func FuzzInUse(f *testing.F) {
	f.Add([]byte("Error: listen EADDRINUSE: address already in use :::3000"))
	f.Add([]byte("listen tcp :8080: bind: address already in use"))
	f.Add([]byte("\x1b]0;x\x07Port 1 is in use"))
	f.Fuzz(func(t *testing.T, line []byte) {
		port, ok := InUse(line)
		if port < 0 || port > 65535 || (port != 0 && !ok) {
			t.Fatalf("InUse(%q) = %d, %v", line, port, ok)
		}
		if ok && !mayBeInUse(line) {
			t.Fatalf("InUse(%q) matched a line mayBeInUse turns away", line)
		}
		for _, p := range Named(string(line)) {
			if p < 1 || p > 65535 {
				t.Fatalf("Named(%q) gave %d", line, p)
			}
		}
	})
}
