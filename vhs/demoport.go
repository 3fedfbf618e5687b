package vhs

import (
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
)

// DemoPortEnv names the variable that tells the tapes' dev server
// (vhs/demoserver, on PATH as demo-server) which loopback port to listen
// on. Run gives every replay a free port of its own in it, so replays in
// parallel never meet, and shows it in snapshots as PortPlaceholder.
const DemoPortEnv = "DEMO_PORT"

// PortPlaceholder stands for the replay's port in snapshots and goldens:
// ":$PORT" for ":43127". The port always has five digits, so columns stay
// where they were.
const PortPlaceholder = "$PORT"

// freePort returns a free TCP port of 127.0.0.1 with five digits: one the
// kernel just gave out and took back. Something else may take it before
// the replay's job does; on Linux the ephemeral range makes that rare.
func freePort() (string, error) {
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", fmt.Errorf("find a free port for %s: %w", DemoPortEnv, err)
		}
		port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		l.Close()
		if len(port) == 5 {
			return port, nil
		}
	}
	return "", fmt.Errorf("find a free port for %s: no five-digit port in 20 tries", DemoPortEnv)
}

// envValue returns the value of key in env (the last assignment wins).
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// normalizePort replaces ":<port>" (a whole number) in lines with
// ":"+PortPlaceholder; lines are changed in place and returned.
func normalizePort(lines []string, port string) []string {
	if len(port) != len(PortPlaceholder) {
		return lines // a port of another width would move columns: leave it
	}
	re := regexp.MustCompile(`:` + regexp.QuoteMeta(port) + `\b`)
	for i, l := range lines {
		if strings.Contains(l, port) {
			lines[i] = re.ReplaceAllLiteralString(l, ":"+PortPlaceholder)
		}
	}
	return lines
}
