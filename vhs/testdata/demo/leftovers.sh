#!/usr/bin/env bash
# leftovers.sh [-w SECS]: lists the processes that carry the demo tree's
# marker (see marker.sh), by name, sorted; no pids. Exit 0 and
# "leftovers: none" when nothing carries it, else exit 1. With -w it keeps
# looking for up to SECS seconds until nothing is left.
set -u
here=$(dirname "$0")
. "$here/marker.sh"
wait_s=0
if [ "${1:-}" = -w ]; then wait_s=${2:-0}; fi
end=$((SECONDS + wait_s))
while :; do
	marked_procs
	[ "${#MARKED[@]}" -eq 0 ] && break
	[ "$SECONDS" -ge "$end" ] && break
	sleep 0.2
done
if [ "${#MARKED[@]}" -eq 0 ]; then
	echo "leftovers: none, nothing carries the marker"
	exit 0
fi
echo "leftovers: ${#MARKED[@]} processes carry the marker:"
printf '%s\n' "${MARKED[@]}" | sort | while IFS= read -r name; do printf '  %s\n' "$name"; done
exit 1
