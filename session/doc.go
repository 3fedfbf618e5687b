// Package session shares one live jobs core between every jobdeck started
// for the same user and worktree: the console, and any number of agents
// (`jobdeck --serve`, `jobdeck --serve --http`).
//
// A session is one process (the same binary, started with the hidden
// argument Arg) that owns a jobs table. The first client to find no live
// session starts it; later clients join it. Clients reach it over a Unix
// socket in a directory of the user's own (Dir): $XDG_RUNTIME_DIR/jobdeck,
// else jobdeck-<uid> under the temporary directory; the directory is 0700
// and checked on every start (owner, mode, not a symlink), the socket is
// 0600, and every connection's peer uid (SO_PEERCRED) must be the owner's,
// or the connection is closed at once.
//
// Naming (Key): a session is named after its worktree (the git top level
// of the directory a client starts in; outside git, that directory), or
// after --session NAME. Its files are <key>.sock, <key>.lock (held with
// flock for the session's whole life: liveness is the lock, never a file,
// ARCHITECTURE.md §2), <key>.json (what `jobdeck sessions` shows) and
// <key>.log (its own messages; removed at a clean end, kept when the jobs
// did not all stop or a warning was logged). Two clients started at the
// same instant end up in one session.
//
// Wire: every connection starts with one JSON-RPC 2.0 request line,
// "jobdeck/hello" (Hello), answered by one response line (Welcome, or an
// error naming both protocol versions). Both lines keep their shape in
// every protocol version. What follows depends on the client's kind:
//
//   - KindMCP: the connection carries MCP (the session runs the MCP server
//     of package serve on it, over the real jobs table); `jobdeck --serve`
//     relays its stdin and stdout to it byte for byte.
//   - KindConsole: the native dialect of this package (JSON-RPC framed by
//     the go-sdk's IOTransport): requests for the jobs core, and coalesced
//     event notifications.
//   - KindHTTP: the session serves MCP over streamable HTTP on the address
//     the client names, for as long as the client stays connected.
//   - KindControl: `jobdeck sessions` asks what the session is and can
//     stop it; such a client does not count as attached.
//
// Lifetime: the session lives while any client (console, MCP, HTTP) is
// attached. When the last one leaves (it quit, its stdin ended, or it was
// killed: a closed connection is a departure) the session lingers (5 s by
// default, at most a minute); a client that attaches meanwhile keeps it. At
// the end of the linger, or on SIGTERM, SIGINT or SIGHUP, it closes its
// socket, stops every job the way jobdeck always does, and exits; it holds
// the lock until every tree is empty. SIGKILL of the session process stops
// every tree through the supervisors (each sees its control pipe close).
//
// Delivery to a console: event notifications are coalesced per job and
// kind while the client does not read them, so a client that stalls holds
// at most one pending event per job and kind and learns how many events
// were merged; it can never slow the core, a job or another client.
// Requests are answered in arrival order per connection; a request that
// waits (a kill, a status with wait) does not hold up the others.
package session
