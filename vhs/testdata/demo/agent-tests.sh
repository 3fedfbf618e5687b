#!/usr/bin/env bash
# agent-tests.sh [OUT]: a scripted coding agent that runs the tests. It runs
# `jobdeck --serve` (which joins the session of this worktree, as an MCP
# client would launch it), starts gotest.sh (found on PATH, as the agent
# found it) as job "tests"
# and waits for it to end, then stays attached, as an agent between two
# turns does, until 60 s have passed or it is killed. Every JSON-RPC answer
# goes to OUT (default ~/agent.out). Start it in the background.
set -u
out=${1:-$HOME/agent.out}
{
	printf '%s\n' \
		'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"demo-agent","version":"1"}}}' \
		'{"jsonrpc":"2.0","method":"notifications/initialized"}' \
		'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"background","arguments":{"command":"gotest.sh","name":"tests","wait":30}}}'
	sleep 60
} | jobdeck --serve >"$out" 2>&1
