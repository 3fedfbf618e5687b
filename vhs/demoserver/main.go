// Command demo-server is the tapes' dev server: it listens on
// 127.0.0.1:$DEMO_PORT (5173 when DEMO_PORT is unset; the tape runner
// gives every replay a free port of its own), prints two fixed lines the
// way a dev server says it is up, and answers every HTTP request with
// "demo-server". SIGTERM or SIGINT makes it say so and exit 0; it ends by
// itself after a minute. It listens on loopback only and opens no other
// connection.
//
// Build it next to jobdeck to render the tapes that use it:
//
//	go build -o /tmp/jd/demo-server ./vhs/demoserver
package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// life is how long the server runs at most.
const life = time.Minute

func main() {
	port := os.Getenv("DEMO_PORT")
	if port == "" {
		port = "5173"
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", port))
	if err != nil {
		fmt.Fprintf(os.Stderr, "demo-server: %v\n", err) // Go's words: "… bind: address already in use"
		os.Exit(1)
	}
	fmt.Println("  demo-server ready")
	fmt.Printf("  ➜  Local:   http://%s/\n", l.Addr())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		_ = http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprintln(w, "demo-server")
		}))
	}()
	select {
	case <-sigs:
		fmt.Println("  demo-server: shutting down")
	case <-time.After(life):
	}
	l.Close()
}
