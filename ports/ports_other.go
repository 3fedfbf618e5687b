//go:build !linux

package ports

import "github.com/jobdeck/jobdeck/model"

// Scanner finds the TCP ports that process trees listen on; on this
// system it finds none (see Scan).
type Scanner struct{}

// Scan finds nothing here: it returns one nil entry per root and
// ErrUnsupported.
func (s *Scanner) Scan(roots []int) ([][]model.Port, error) {
	return make([][]model.Port, len(roots)), ErrUnsupported
}

// Holders finds nothing here: it returns ErrUnsupported.
func Holders(port int, first ...int) ([]model.PortHolder, error) { return nil, ErrUnsupported }

// Ancestors knows no processes here: it returns nil.
func Ancestors(pid int) []int { return nil }

// Parent knows no processes here: it returns false.
func Parent(pid int) (int, bool) { return 0, false }

// Children knows no processes here: it returns nil.
func Children(pid int) []int { return nil }

// Environ reads no environments here: it returns nil.
func Environ(pid int, keys ...string) map[string]string { return nil }
