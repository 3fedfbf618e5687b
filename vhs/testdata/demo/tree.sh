#!/usr/bin/env bash
# tree.sh: a job whose process tree tries to outlive a naive kill.
#
#   tree-leader              the job's script (started over under that name), then a sleep
#   ├─ tree-ignores-term     ignores SIGTERM: the stop has to escalate to SIGKILL
#   └─ tree-parent
#      └─ tree-setsid-grandchild   setsid(1): a session of its own, outside
#                                  the job's process group and session
#
# Every process carries DEMO_MARK=<marker> (and PROC_CASE_MARKER=<marker>,
# for ../shared/cases/proc/check-leftovers.sh -m) in its environment; see
# marker.sh. Each one exits by itself after 60 s. Prints "tree READY" once
# all four are running; no pids or times reach the screen.
set -u
here=$(dirname "$0")
. "$here/marker.sh"
if [ "${DEMO_TREE_LEADER:-}" != 1 ]; then
	# Start over as "tree-leader" with the marker in the initial
	# environment, so the leader carries it (in /proc/PID/environ) from
	# the start, not only after its last exec.
	export DEMO_MARK PROC_CASE_MARKER=$DEMO_MARK DEMO_TREE_LEADER=1
	exec -a tree-leader bash "$0" "$@"
fi
life=60

(
	trap '' TERM
	exec -a tree-ignores-term sleep "$life"
) &
(
	setsid bash -c 'exec -a tree-setsid-grandchild sleep "$0"' "$life" &
	exec -a tree-parent sleep "$life"
) &

# Wait (at most 5 s) until the three children run under their names, so a
# scan right after READY sees the whole tree.
for ((try = 0; try < 50; try++)); do
	marked_procs
	n=0
	for name in "${MARKED[@]}"; do
		case $name in tree-ignores-term | tree-parent | tree-setsid-grandchild) n=$((n + 1)) ;; esac
	done
	[ "$n" -ge 3 ] && break
	sleep 0.1
done
echo "tree: TERM-ignoring child, setsid grandchild"
echo "tree READY"
exec -a tree-leader sleep "$((life > SECONDS ? life - SECONDS : 1))"
