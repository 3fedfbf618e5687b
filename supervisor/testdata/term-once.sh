#!/usr/bin/env bash
# term-once.sh DIR — term-counter.sh as a child in the group, in its own
# session, as a double-forked orphan, and as this script itself. After a
# stop every DIR/<name> must hold exactly one line: each process got
# SIGTERM once. Env: TEST_MARK, TESTDATA, SUPTEST_EXE.
export TERM_DIR="${1:?}"
C="${TESTDATA:?}/term-counter.sh"
bash "$C" child &
SUPTEST_HELPER=exec SUPTEST_SETSID=1 "${SUPTEST_EXE:?}" bash "${TEST_MARK:?}-setsid-counter" "$C" setsid &
( bash "$C" orphan & )
sleep 0.3
echo READY
exec bash "$C" leader
