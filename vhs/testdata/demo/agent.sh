#!/usr/bin/env bash
# agent.sh [OUT]: a scripted coding agent. It runs `jobdeck --serve` (which
# joins the session of this worktree, as an MCP client would launch it),
# starts testdata/demo/devserver.sh (relative to the directory it runs in,
# which its jobs run in too) as job "web", then waits up to 60 s for
# that job to end, and writes every JSON-RPC answer to OUT (default
# ~/agent.out). Start it in the background; its stdin ends after the
# requests, and jobdeck answers everything asked before it exits.
set -u
out=${1:-$HOME/agent.out}
printf '%s\n' \
	'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"demo-agent","version":"1"}}}' \
	'{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"background","arguments":{"command":"testdata/demo/devserver.sh","name":"web"}}}' \
	'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"job_status","arguments":{"id":"web","wait":60}}}' |
	jobdeck --serve >"$out" 2>&1
