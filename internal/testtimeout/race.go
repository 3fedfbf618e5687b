//go:build race

package testtimeout

// Factor is how much longer deadlines are under the race detector.
const Factor = 3

// Race reports a build with the race detector.
const Race = true
