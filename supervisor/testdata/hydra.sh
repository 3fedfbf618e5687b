#!/usr/bin/env bash
# hydra.sh — respawners that ignore SIGTERM and restart their children
# whenever one dies (one of them in its own session, one orphaned), so the
# SIGTERM phase cannot end the tree; SIGKILL must converge.
# Env: TEST_MARK, SUPTEST_EXE.
M="${TEST_MARK:?}"
respawn='trap "" TERM; while :; do sleep 60 & wait $!; done'
bash -c "$respawn" "$M-respawner" &
SUPTEST_HELPER=exec SUPTEST_SETSID=1 "${SUPTEST_EXE:?}" bash "$M-setsid-respawner" -c "$respawn" &
( bash -c "$respawn" "$M-orphan-respawner" & )
sleep 0.3
echo READY
trap "" TERM
while :; do sleep 60 & wait $!; done
