// Package testtimeout scales the deadlines of tests to the build they run
// in. Under the race detector Go code runs several times slower and every
// re-executed test binary (a supervisor, a fake jobdeck) starts slower, so a
// deadline that holds on a plain build fails on a busy machine under -race.
// Tests wrap their deadlines in Scale instead of widening them for every
// build. It is for tests only; no product code imports it.
package testtimeout

import "time"

// Scale returns d multiplied by Factor: d itself in a plain build, Factor
// times d under -race.
func Scale(d time.Duration) time.Duration { return d * Factor }
