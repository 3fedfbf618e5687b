#!/usr/bin/env bash
# wide-tree.sh — 500 background sleeps, 100 more in sessions of their own,
# and 50 double-forked: about 650 processes that all die on SIGTERM.
# Env: TEST_MARK, SUPTEST_EXE.
M="${TEST_MARK:?}"
for _ in $(seq 500); do sleep 60 & done
for _ in $(seq 100); do SUPTEST_HELPER=exec SUPTEST_SETSID=1 "${SUPTEST_EXE:?}" sleep "$M-setsid" 60 & done
for _ in $(seq 50); do ( sleep 60 & ) ; done
sleep 0.5
echo READY
wait
