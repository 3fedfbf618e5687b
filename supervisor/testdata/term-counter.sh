#!/usr/bin/env bash
# term-counter.sh NAME — appends a line to $TERM_DIR/NAME for every SIGTERM
# it gets and exits 0.5 s after the first one (so a second SIGTERM would be
# recorded). It prints "NAME armed" once its trap is set. Each line carries
# the time ($EPOCHREALTIME: no fork), for a failing test to show.
# left is set before the trap and the "armed" line: a SIGTERM that
# follows that line at once must find the countdown it shortens.
left=1200
trap 'echo "TERM $EPOCHREALTIME" >> "$TERM_DIR/$1"; left=10' TERM
echo "$1 armed"
while [ "$left" -gt 0 ]; do left=$((left - 1)); sleep 0.05 & wait $!; done
echo "EXIT $EPOCHREALTIME" >> "$TERM_DIR/$1"
