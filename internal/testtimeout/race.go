//go:build race

package testtimeout

// Factor is how much longer deadlines are under the race detector.
const Factor = 3
