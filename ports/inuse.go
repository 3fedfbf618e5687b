package ports

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// saysInUse matches, in lower case, the ways runtimes say a port is taken:
// Go, Rust, Python, Ruby and Java ("address already in use"), Node
// ("EADDRINUSE"), Vite, Flask and Spring ("Port 5173 is already in use",
// "is in use by another program", "was already in use"), Django ("That
// port is already in use").
var saysInUse = regexp.MustCompile(`address already in use|eaddrinuse|address in use|\bport\b.{0,60}\bin use\b|in use by another (?:program|process)`)

// inUsePort lists, best first, where a line that says a port is in use
// names the port (lower case, escapes removed).
var inUsePort = []*regexp.Regexp{
	// Go: "listen tcp 127.0.0.1:8080: bind: address already in use".
	regexp.MustCompile(`listen tcp[46]? \S*:(\d{1,5})\b`),
	// Node: "listen EADDRINUSE: address already in use :::3000".
	regexp.MustCompile(`address already in use:?\s+\S*:(\d{1,5})\b`),
	// Python (uvicorn, asyncio): "bind on address ('127.0.0.1', 8000)".
	regexp.MustCompile(`\(\s*'[^']*'\s*,\s*(\d{1,5})\s*\)`),
	// Vite, Ruby, Spring, Flask: "Port 5173 is already in use",
	// `bind(2) for "0.0.0.0" port 3000`.
	regexp.MustCompile(`\bport\W{0,3}(\d{1,5})\b`),
	// Anything else with an address: "bind() to 0.0.0.0:80 failed".
	hostPort,
}

// hostPort matches an address and port such as 127.0.0.1:80, [::1]:80,
// localhost:80, *:80 or :80 (after a space or bracket), but not a clock
// (12:03).
var hostPort = regexp.MustCompile(`(?:^|[\s(\[="'/])(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]*\]|localhost|\*|::)?:(\d{1,5})\b`)

// namedPort lists where a command or a neighbouring line names a port.
var namedPort = []*regexp.Regexp{
	inUsePort[0], inUsePort[2], inUsePort[3], hostPort,
	// "python3 -m http.server 8000", "http.server --bind ::1 8000".
	regexp.MustCompile(`http\.server\b[^;&|]*?\s(\d{1,5})(?:\s|$|[;&|])`),
	// "next dev -p 3001", "serve -p3000".
	regexp.MustCompile(`(?:^|\s)-p\s?(\d{2,5})\b`),
}

// csi matches the escape sequences that colour and move text.
var csi = regexp.MustCompile("\x1b(?:\\[[0-?]*[ -/]*[@-~]|\\][^\x07\x1b]*(?:\x07|\x1b\\\\)?|.)")

// InUse reports whether line (one line of a job's output, raw: escape
// sequences are skipped) says that a port or address is already in use,
// and the TCP port it names there: zero when it names none, as Python's
// "OSError: [Errno 98] Address already in use" does. Most lines cost one
// pass without allocating.
func InUse(line []byte) (port int, ok bool) {
	if !mayBeInUse(line) {
		return 0, false
	}
	text := lowerPlain(line)
	if !saysInUse.MatchString(text) {
		return 0, false
	}
	for _, re := range inUsePort {
		if p := firstPort(re, text); p != 0 {
			return p, true
		}
	}
	return 0, true
}

// Named returns the TCP ports that text (a command, or a line of output
// next to one InUse matched) names as ports or addresses: "--port 8000",
// "-p 3000", "PORT=5173", "127.0.0.1:8080", ":8080", "http.server 8000",
// in the order they appear, without repeats. Nil when it names none.
func Named(text string) []int {
	lower := lowerPlain([]byte(text))
	type hit struct{ at, port int }
	var hits []hit
	for _, re := range namedPort {
		for _, m := range re.FindAllStringSubmatchIndex(lower, -1) {
			if p := portNumber(lower[m[2]:m[3]]); p != 0 {
				hits = append(hits, hit{m[2], p})
			}
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.at - b.at })
	var out []int
	for _, h := range hits {
		if !slices.Contains(out, h.port) {
			out = append(out, h.port)
		}
	}
	return out
}

// mayBeInUse is the cheap test before any other: does line hold "in use",
// "in-use" or "inuse" in any case?
func mayBeInUse(line []byte) bool {
	for {
		i := bytes.IndexAny(line, "nN")
		if i < 0 {
			return false
		}
		if i > 0 && line[i-1]|0x20 == 'i' {
			rest := line[i+1:]
			if len(rest) > 0 && (rest[0] == ' ' || rest[0] == '-') {
				rest = rest[1:]
			}
			if len(rest) >= 3 && rest[0]|0x20 == 'u' && rest[1]|0x20 == 's' && rest[2]|0x20 == 'e' {
				return true
			}
		}
		line = line[i+1:]
	}
}

// lowerPlain removes escape sequences and lowers the case.
func lowerPlain(b []byte) string {
	if bytes.IndexByte(b, 0x1b) >= 0 {
		b = csi.ReplaceAll(b, nil)
	}
	return strings.ToLower(string(b))
}

// firstPort returns the first valid port re's first group matches in
// text, or zero.
func firstPort(re *regexp.Regexp, text string) int {
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		if p := portNumber(m[1]); p != 0 {
			return p
		}
	}
	return 0
}

// portNumber parses a TCP port, 1–65535; zero when s is not one.
func portNumber(s string) int {
	p, err := strconv.Atoi(s)
	if err != nil || p < 1 || p > 65535 {
		return 0
	}
	return p
}
