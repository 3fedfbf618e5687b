//go:build !unix

package serve

// defaultMaxConns is the cap itself where there is no RLIMIT_NOFILE to
// leave room under.
func defaultMaxConns() int { return 128 }
