#!/usr/bin/env bash
# port-holder.sh — a double-forked listener in its own session holds a
# loopback port (any free one); it prints "LISTEN <port>". Env: SUPTEST_EXE.
( SUPTEST_HELPER=listen SUPTEST_SETSID=1 SUPTEST_PORT=0 SUPTEST_LIFE=60 "${SUPTEST_EXE:?}" & )
end=$((SECONDS + 60))
while [ "$SECONDS" -lt "$end" ]; do sleep 1 & wait $!; done
