package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// heapInUse is the live heap after a collection, in bytes.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// TestHTTPAbandonedSessions: 200 sessions opened and abandoned leave at
// most 64 live, and memory and goroutines bounded by those. Not
// parallel: it counts the process's goroutines.
func TestHTTPAbandonedSessions(t *testing.T) {
	h := serveHTTPTest(t, &fakeCore{}, HTTPOptions{})
	open := func(n int) {
		for range n {
			initSession(t, h)
		}
	}
	settled := func() (live, goroutines int) {
		// Evicted sessions close in the background: wait until the
		// server holds at most 64.
		waitFor(t, 10*time.Second, func() bool {
			n := 0
			for range h.s.mcp.Sessions() {
				n++
			}
			live = n
			return n <= DefaultMaxSessions
		})
		return live, runtime.NumGoroutine()
	}
	open(DefaultMaxSessions)
	_, g64 := settled()
	heap64 := heapInUse()
	open(200 - DefaultMaxSessions)
	live, g200 := settled()
	heap200 := heapInUse()
	t.Logf("after 64 sessions: %d goroutines, heap %d KiB; after 200: %d live, %d goroutines, heap %d KiB",
		g64, heap64>>10, live, g200, heap200>>10)
	if n := h.sessions.live(); n > DefaultMaxSessions {
		t.Errorf("%d sessions counted live, want at most %d", n, DefaultMaxSessions)
	}
	if g200 > g64+16 {
		t.Errorf("goroutines grew from %d (64 sessions) to %d (200 opened)", g64, g200)
	}
	if heap200 > heap64+heap64/2+2<<20 {
		t.Errorf("heap grew from %d KiB (64 sessions) to %d KiB (200 opened)", heap64>>10, heap200>>10)
	}
}

// TestHTTPSessionsExpire: abandoned sessions are closed once unused for
// SessionTimeout, and their goroutines end; a client that keeps its event
// stream open keeps its session through the quiet time. Not parallel: it
// counts the process's goroutines.
func TestHTTPSessionsExpire(t *testing.T) {
	// Long enough for the client below to open its event stream (it does
	// so in the background, after connecting) on a loaded machine.
	const timeout = 3 * time.Second
	h := serveHTTPTest(t, &fakeCore{}, HTTPOptions{SessionTimeout: timeout})
	listening := dialHTTP(t, h, "listening", "2025-11-25")
	waitFor(t, timeout, func() bool {
		h.sessions.mu.Lock()
		defer h.sessions.mu.Unlock()
		for _, u := range h.sessions.sessions {
			if u.streams > 0 {
				return true
			}
		}
		return false
	})
	base := runtime.NumGoroutine()
	for range 200 {
		initSession(t, h)
	}
	waitFor(t, 30*time.Second, func() bool {
		n := 0
		for range h.s.mcp.Sessions() {
			n++
		}
		return n == 1 && runtime.NumGoroutine() <= base+16
	})
	time.Sleep(timeout + time.Second) // quiet for longer than the timeout
	ok(t, listening, toolStatus, map[string]any{})
}

// TestHTTPIdleConnsGiveWay: connections that sent nothing, or stalled in
// a request body, do not keep a real client out when all places are
// taken: the longest idle gives way.
func TestHTTPIdleConnsGiveWay(t *testing.T) {
	t.Parallel()
	const maxConns = 8
	h := serveHTTPTest(t, &fakeCore{}, HTTPOptions{MaxConns: maxConns, HeaderTimeout: time.Minute, BodyTimeout: time.Minute})
	var idle []net.Conn
	t.Cleanup(func() {
		for _, c := range idle {
			c.Close()
		}
	})
	for i := range 60 {
		c, err := net.Dial("tcp", h.addr)
		if err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c)
		if i%6 == 0 {
			// A request whose body never comes.
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{", h.addr, testToken)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		cs := dialHTTP(t, h, "real", "2025-11-25")
		_, err := cs.ListTools(ctx, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the real client failed: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("the real client was locked out by idle connections")
	}
	if n := h.conns.open(); n > maxConns+1 {
		t.Errorf("%d connections open, want at most %d", n, maxConns+1)
	}
}

// stallUnauthorized opens n connections to addr that each send a POST
// with a long body announced and three bytes of it, then stall; every
// other one carries a wrong token, the rest none. The connections are
// closed at the test's end; they are returned.
func stallUnauthorized(t testing.TB, addr string, n int) []net.Conn {
	t.Helper()
	var conns []net.Conn
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for i := range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		conns = append(conns, c)
		auth := ""
		if i%2 == 1 {
			auth = "Authorization: Bearer wrong-token-0123456789\r\n"
		}
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n%sContent-Length: 100000\r\n\r\nabc", auth)
	}
	return conns
}

// refusedAndClosed reports whether the server answered c with 401 and
// closed it within d (what it has not read of the body notwithstanding);
// the error says what came instead.
func refusedAndClosed(c net.Conn, d time.Duration) error {
	c.SetReadDeadline(time.Now().Add(d))
	got, err := io.ReadAll(c)
	if err != nil {
		return fmt.Errorf("after %q: %v", got, err)
	}
	if !strings.HasPrefix(string(got), "HTTP/1.1 401 ") {
		return fmt.Errorf("got %q, want a 401", got)
	}
	return nil
}

// TestHTTPUnauthorizedStallsGiveWay: connections without the token (or
// with a wrong one) that stall in a request body do not keep the owner
// out: each is refused with 401 and closed as soon as its headers are in,
// so an authorized client is answered at once (a coarse 5 s here; it
// waited 30 s per round of MaxConns stalled connections before).
func TestHTTPUnauthorizedStallsGiveWay(t *testing.T) {
	t.Parallel()
	const maxConns = 8
	h := serveHTTPTest(t, &fakeCore{}, HTTPOptions{MaxConns: maxConns})
	stalled := stallUnauthorized(t, h.addr, 20*maxConns)
	start := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "owner", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + h.addr + "/mcp", HTTPClient: tokenClient(testToken)}, nil)
	if err != nil {
		t.Fatalf("the owner's initialize after %v: %v", time.Since(start).Round(time.Millisecond), err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("the owner's tools/list after %v: %v", time.Since(start).Round(time.Millisecond), err)
	}
	t.Logf("the owner was answered in %v", time.Since(start).Round(time.Millisecond))
	// The last ones were refused, not merely pushed out by newcomers.
	for _, c := range stalled[len(stalled)-2:] {
		if err := refusedAndClosed(c, 5*time.Second); err != nil {
			t.Errorf("a stalled connection without the token: %v", err)
		}
	}
}
