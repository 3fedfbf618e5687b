#!/usr/bin/env bash
# escapees.sh — children that leave the job's process group or session, or
# lose their parent: setsid, fork-then-setsid (setsid -f), setpgid, double
# fork, nohup, disown, an env-scrubbed one (marker only in argv) and a
# renamed one (marker only in the environment). All die on SIGTERM. The
# env-scrubbed one keeps PATH only, so that the helper finds sleep.
# Env: TEST_MARK, SUPTEST_EXE.
M="${TEST_MARK:?}"
X="${SUPTEST_EXE:?}"
SUPTEST_HELPER=exec SUPTEST_SETSID=1 "$X" sleep "$M-setsid" 60 &
( SUPTEST_HELPER=exec SUPTEST_SETSID=1 "$X" sleep "$M-setsid-f" 60 & )
SUPTEST_HELPER=exec SUPTEST_SETPGID=1 "$X" sleep "$M-setpgid" 60 &
( exec -a "$M-double-fork" sleep 60 & )
nohup bash -c 'exec -a "$0" sleep 60' "$M-nohup" >/dev/null 2>&1 &
bash -c 'exec -a "$0" sleep 60' "$M-disowned" &
disown
env -i PATH="$PATH" SUPTEST_HELPER=exec SUPTEST_SETSID=1 "$X" sleep "$M-env-scrubbed" 60 &
SUPTEST_HELPER=exec SUPTEST_SETSID=1 "$X" sleep innocent-looking-sleeper 60 &
sleep 0.3
echo READY
end=$((SECONDS + 60))
while [ "$SECONDS" -lt "$end" ]; do sleep 1 & wait $!; done
