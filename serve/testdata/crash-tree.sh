#!/usr/bin/env bash
# crash-tree.sh: a tree that is hard to clean up when jobdeck itself dies:
# a child that ignores SIGTERM (needs SIGKILL after the grace), a setsid'd
# child (left the process group and session), and a double-forked child
# (orphaned to the subreaper). Bash and coreutils only. Every process
# lives at most LIFE seconds (default 40), even if nobody kills it.
LIFE="${LIFE:-40}"
( trap '' TERM INT HUP; exec sleep "$LIFE" ) &
setsid sleep "$LIFE" &
( sleep "$LIFE" & ) &
sleep 0.2
echo "crash-tree READY"
while :; do sleep 1; done
