// Package serve is jobdeck's agent surface: the MCP server behind
// `jobdeck --serve` (ARCHITECTURE.md §3, §6 "to add a tool"). Its tools
// over the jobs core: background (start a command, return its report),
// job_status (one job's report, or the list; with a wait for a job to
// end or a line to match) and job_kill (stop a job and its whole tree,
// return the final report). Their arguments are schema.go's.
//
// It reaches the core only through the Core interface it declares, and
// makes every word the agent reads (text.go, render.go; the sentences
// the console shows too are package words's) from the core's structure;
// the core's refusals are reworded with the tool and argument to use,
// never checked again. Per client it remembers what of each job it was
// shown and where its last until wait matched (notes.go).
//
// Guarantees:
//
//   - Every result is its text alone, the form agent clients hand their
//     model, within its budget: 16 KiB, or what max_bytes asks for (at
//     most 256 KiB). Over-long lines are cut in the middle; when the lines
//     do not fit, the newest are kept and the result ends with the exact
//     call that reads the others. A list shows every live job, whatever
//     its budget. The text is plain (no escape bytes, no control bytes
//     other than newline and tab, valid UTF-8) and holds every fact an
//     agent acts on.
//   - With StreamOptions.Structured (--serve --structured) each tool
//     declares an output schema and each result carries the same report
//     as structured content too, whose strings are plain and whose JSON
//     is fitted to the budget on its own (it may leave out more lines
//     than the text, and says which), commands cut as the text cuts them
//     (brief.go).
//   - Bad input never becomes a protocol error or a crash: empty or
//     over-long commands, bad directories, unknown or ambiguous selectors,
//     bad regexps, out-of-range numbers, mistyped or malformed arguments and
//     the core's refusals all come back as tool errors (isError) whose
//     message says what to do instead.
//   - Jobs that finished since a client last looked (per MCP session: one
//     on stdio, one per Mcp-Session-Id over HTTP; per client name and
//     version for sessionless HTTP requests, protocol 2026-07-28) are
//     noted at the end of the next result, error results included,
//     exactly once, within a quarter of the budget (the rest counted). A
//     client has looked at a finished job when a result showed it
//     finished: its own report, a note, or the list; the jobs that had
//     finished when it came (its first request) are never noted to it.
//   - Over stdio, only JSON-RPC is written to the output; serve never logs.
//     No input line ends the session: one the SDK could not take safely is
//     answered with a JSON-RPC error (serve/stdio). EOF on the input ends
//     RunStdio with nil once every request already read is answered; the
//     caller then stops every job.
//   - Over HTTP, only loopback addresses are served, and only to requests
//     that carry the token (401 otherwise; auth.go). Sessions,
//     connections and their I/O are bounded (HTTPOptions), and server
//     errors are logged once per kind, rate-limited, never with the token.
//
// It never starts processes itself, never keeps job state beyond which
// finished jobs each session was told about, and never writes to stdout
// except through the transport it was given.
package serve
