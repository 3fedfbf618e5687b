//go:build unix && !linux

package session

import "errors"

// signalSession cannot verify a session process without /proc and pidfds
// here; `jobdeck sessions stop` then needs a session that answers.
func signalSession(dir, key string) (int, error) {
	return 0, errors.New("stopping a session that does not answer needs Linux (pidfds, /proc)")
}
