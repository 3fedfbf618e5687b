#!/usr/bin/env bash
# ignore-term.sh — nothing in this tree dies on SIGTERM: the script traps it
# and says so, a child ignores it (SIG_IGN survives exec), and a child in its
# own session ignores it too. A stop must escalate to SIGKILL after the grace.
# Env: TEST_MARK (argv/env marker), SUPTEST_EXE (the test binary).
M="${TEST_MARK:?}"
trap 'echo "leader: got SIGTERM, ignoring"' TERM
( trap '' TERM; exec -a "$M-ignorer" sleep 60 ) &
SUPTEST_HELPER=exec SUPTEST_SETSID=1 "${SUPTEST_EXE:?}" bash "$M-setsid-ignorer" -c 'trap "" TERM; exec -a "$0" sleep 60' "$M-setsid-ignorer" &
sleep 0.2
echo READY
end=$((SECONDS + 60))
while [ "$SECONDS" -lt "$end" ]; do sleep 1 & wait $!; done
