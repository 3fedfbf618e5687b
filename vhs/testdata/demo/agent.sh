#!/usr/bin/env bash
# agent.sh [OUT]: a scripted coding agent. It runs `jobdeck --serve` (which
# joins the session of this worktree, as an MCP client would launch it),
# starts testdata/demo/devserver.sh (relative to the directory it runs in,
# which its jobs run in too) as job "web", then waits up to 60 s for
# that job to end, and writes every JSON-RPC answer to OUT (default
# ~/agent.out). Start it in the background. Like a real agent it sends a
# call once the one it depends on is answered (jobdeck runs a client's
# calls concurrently), and keeps jobdeck's input open until its wait is
# answered.
set -u
out=${1:-$HOME/agent.out}
fifo=$(mktemp -u "${TMPDIR:-/tmp}/agent-in.XXXXXX")
mkfifo -m 600 "$fifo"
jobdeck --serve <"$fifo" >"$out" 2>&1 &
exec 3>"$fifo"
rm -f "$fifo"

# answered ID: wait (at most 90 s) until OUT holds the answer to call ID.
answered() {
	for _ in $(seq 900); do
		grep -q "\"id\":$1," "$out" 2>/dev/null && return
		sleep 0.1
	done
}

printf '%s\n' >&3 \
	'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"demo-agent","version":"1"}}}' \
	'{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"background","arguments":{"command":"testdata/demo/devserver.sh","name":"web"}}}'
answered 2
printf '%s\n' >&3 \
	'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"job_status","arguments":{"id":"web","wait":60}}}'
answered 3
exec 3>&-
wait
