//go:build !race

package testtimeout

// Factor is how much longer deadlines are: 1 in a build without the race
// detector.
const Factor = 1

// Race reports a build with the race detector.
const Race = false
