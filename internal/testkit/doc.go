// Package testkit is what the tests of jobdeck's packages share, so that
// no package copies it:
//
//   - the shared adversarial cases: ProcCases, ProcCase, CheckLeftovers
//   - waits with deadlines: Poll, WaitFor
//   - what a test left behind: Marked, Leftovers, AssertNoLeftovers,
//     EnvMarked; whether its jobdeck sessions ended: SessionsLive,
//     WaitSessions; the processes of a throwaway uid: TasksOf
//   - signal dispositions: Catches, Ignores, SignalMask
//   - free ports: FreePorts
//   - golden files: Golden, CompareGolden, Diff and the -update flag
//   - the jobdeck binary built once per test binary: Jobdeck, Build,
//     BinDir, RemoveBuilds
//   - MCP clients of jobdeck --serve: Agent, CallTool, ToolText; raw
//     JSON-RPC lines: LineInitialize, LinePing, HostileLines, MessageProblem
//   - the trivial reader benchmarks measure jobdeck against: FloodRead
//   - a Buffer to collect a process's output while a test reads it
//
// It is for tests only: test files import it, and so does package vhs,
// whose tape runner is test code itself; no product package does
// (deps_test.go). Deadlines are taken as given: a test scales its own with
// internal/testtimeout where the race detector slows what it waits for.
package testkit
