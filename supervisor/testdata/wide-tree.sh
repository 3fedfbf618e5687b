#!/usr/bin/env bash
# wide-tree.sh — 500 sleeps in the job's process group, 100 more in sessions
# of their own (the children of two helpers) and 50 double-forked: about
# 650 processes that all die on SIGTERM.
# Env: TEST_MARK, SUPTEST_EXE.
M="${TEST_MARK:?}"
SUPTEST_HELPER=children "${SUPTEST_EXE:?}" 500 sleep "$M-pgrp" 60 &
SUPTEST_HELPER=children SUPTEST_CHILD_SETSID=1 "$SUPTEST_EXE" 100 sleep "$M-setsid" 60 &
for _ in $(seq 50); do ( sleep 60 & ) ; done
sleep 0.5
echo READY
wait
