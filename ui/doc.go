// Package ui is jobdeck's terminal console: one Bubble Tea v2 program that
// shows a live job list beside tailing panes for up to eight jobs, with a
// command palette, confirm dialogs, a report overlay and a help footer.
//
// Contract:
//
//   - It reaches the jobs core only through the Core interface declared
//     here, so the same console can run against another core (a fake in
//     tests, a remote one later). It never imports package jobs or
//     package supervisor.
//   - Output is pulled, never pushed: a re-armed blocking command waits on
//     the core's Subscription; an output event only marks the screen dirty
//     and schedules at most one frame (about 33 ms later), so the screen
//     redraws at most about 30 times a second while output flows and not at
//     all when nothing changes, except for a once-a-second tick while a job
//     is live (elapsed times). No output reader ever waits on the screen.
//   - Panes read their window from the core at render time (the newest
//     lines, or from a cursor while scrolled up); the ring is the
//     scrollback and the model never copies whole rings.
//   - Update does no IO: Start, Kill and Status run in tea.Cmds, and Kill
//     (which blocks until a job's tree is empty) never freezes the screen.
//   - Job output is sanitised at render time: SGR colours survive (closed
//     at the end of each line), every other escape is dropped, so nothing
//     but text and colour reaches the terminal. With NO_COLOR there is no
//     colour at all; glyphs and borders still tell states and focus apart.
//   - Run returns when the user quits (after confirming when jobs run, and
//     after stopping them); it never closes the core: its caller does.
package ui
