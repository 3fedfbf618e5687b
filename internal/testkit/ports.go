package testkit

import (
	"net"
	"strconv"
	"testing"
)

// FreePorts returns n consecutive loopback TCP ports that were all free a
// moment ago, lowest first (the shared cases take a first port and use
// the ones after it). It fails t when 50 tries find no such run.
func FreePorts(t testing.TB, n int) []int {
	t.Helper()
	for range 50 {
		var lns []net.Listener
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		first := ln.Addr().(*net.TCPAddr).Port
		ok := first+n <= 65535
		for i := 1; ok && i < n; i++ {
			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(first+i))
			if err != nil {
				ok = false
				break
			}
			lns = append(lns, l)
		}
		for _, l := range lns {
			l.Close()
		}
		if ok {
			ports := make([]int, n)
			for i := range ports {
				ports[i] = first + i
			}
			return ports
		}
	}
	t.Fatalf("no %d consecutive free loopback ports", n)
	return nil
}
