package model

import (
	"encoding/json"
	"net/netip"
	"reflect"
	"testing"
	"time"
)

// TestPortString: addresses as a browser takes them.
func TestPortString(t *testing.T) {
	for _, c := range []struct {
		p    Port
		want string
	}{
		{Port{Addr: netip.MustParseAddr("127.0.0.1"), Port: 5173}, "127.0.0.1:5173"},
		{Port{Addr: netip.MustParseAddr("::"), Port: 8080}, "[::]:8080"},
		{Port{Addr: netip.MustParseAddr("::1"), Port: 1}, "[::1]:1"},
		{Port{Port: 80}, ":80"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}

// TestPortsCrossAWire: a snapshot's ports and conflict survive JSON (the
// session's console dialect carries snapshots so).
func TestPortsCrossAWire(t *testing.T) {
	job := JobID(2)
	in := Snapshot{
		ID: 3,
		Ports: []Port{
			{Addr: netip.MustParseAddr("127.0.0.1"), Port: 5173, PID: 10},
			{Addr: netip.MustParseAddr("::"), Port: 8080, PID: 11},
		},
		PortConflict: &PortConflict{Port: 5173, Seq: 4, At: time.Unix(1700000000, 0).UTC(), Holder: &PortHolder{
			Socket: Port{Addr: netip.MustParseAddr("127.0.0.1"), Port: 5173, PID: 10}, Command: "node",
			UID: 1000, Job: &job, JobName: "web",
		}},
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Snapshot
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("after JSON:\n%+v\nwant\n%+v\n(%s)", out, in, b)
	}
}
