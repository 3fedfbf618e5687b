#!/usr/bin/env bash
# leader-exits-bg.sh — `ticker &` then exit 0: the exit status is due at
# once, while the ticker (one process, no children) keeps writing to stdout.
# Env: SUPTEST_EXE.
SUPTEST_HELPER=ticker SUPTEST_LIFE=60 "${SUPTEST_EXE:?}" &
echo "leader exiting"
exit 0
