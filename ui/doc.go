// Package ui is jobdeck's terminal console: one Bubble Tea v2 program that
// shows a live job list beside tailing panes for up to eight jobs, with a
// command palette, confirm dialogs, a report overlay and a help footer.
//
// Contract:
//
//   - It reaches the jobs core only through the Core interface declared
//     here, so the same console can run against another core (a fake in
//     tests, a session in another process behind a socket). Every Core
//     method takes a context and may fail; a lost link (model.ErrUnavailable)
//     leaves the screen as it was and says so in the status line. It never
//     imports package jobs or package supervisor, and its words
//     (ui/present) never come from package serve.
//   - It draws only from its own state. What it shows of the core (the job
//     list, each pane's window of lines, an open /job-status report) is
//     fetched in tea.Cmds, one fetch in flight at a time: on the frame tick
//     while output flows, at once on state events, and when a key or a
//     resize changes what the panes show. View never calls the core, and
//     Update never calls it either: starts, kills, status requests and
//     selector lookups run in commands too, and Kill (which blocks until a
//     job's tree is empty) never freezes the screen. A key press redraws at
//     once from the state at hand.
//   - Output is pulled, never pushed: a re-armed blocking command waits on
//     the core's Subscription; an output event only schedules at most one
//     frame (about 33 ms later), so the screen fetches and redraws at most
//     about 30 times a second while output flows and not at all when
//     nothing changes, except for a once-a-second redraw while a job is
//     live (elapsed times). No output reader ever waits on the screen.
//   - The ring is the scrollback: the model keeps each pane's window and
//     cursor, never whole rings.
//   - Job output is sanitised at render time: SGR colours survive (closed
//     at the end of each line), every other escape is dropped, so nothing
//     but text and colour reaches the terminal. With NO_COLOR there is no
//     colour at all; glyphs and borders still tell states and focus apart.
//   - Run returns when the user quits (after confirming when jobs run, and
//     after stopping them); it never closes the core: its caller does.
package ui
