// Package present makes the console's words: small pure functions that
// turn the jobs core's structure (model.Report, model.Snapshot,
// model.Page) into the text the screen shows. Package ui places and
// styles that text; this package never styles, never does IO and keeps no
// state.
//
// The agent's words are made by package serve from the same structure;
// the two never read each other's text, and this package imports neither
// serve nor ui (deps_test.go keeps it so). A sentence both show is made
// once, in package words or model (sentences_test.go keeps it so).
package present
