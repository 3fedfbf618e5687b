package ports

import (
	"cmp"
	"errors"
	"slices"

	"github.com/jobdeck/jobdeck/model"
)

// ErrUnsupported is what Scan and Holders return where there is no Linux
// /proc to read the socket tables from.
var ErrUnsupported = errors.New("listening ports are read from Linux's /proc; this system has none")

// SortPorts sorts ps by port, then address (IPv4 before IPv6), keeping the
// order of entries otherwise equal, and drops repeats of an address and
// port (several sockets of SO_REUSEPORT workers), keeping the first. It
// returns nil for an empty list.
func SortPorts(ps []model.Port) []model.Port {
	if len(ps) == 0 {
		return nil
	}
	slices.SortStableFunc(ps, func(a, b model.Port) int {
		return cmp.Or(cmp.Compare(a.Port, b.Port), a.Addr.Compare(b.Addr))
	})
	return slices.CompactFunc(ps, func(a, b model.Port) bool {
		return a.Port == b.Port && a.Addr == b.Addr
	})
}
