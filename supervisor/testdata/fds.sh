#!/usr/bin/env bash
# fds.sh — prints the open fds of a child of the job once it runs sleep (ls
# would list its own directory fd; before exec the child still has bash's
# close-on-exec fds), its stdout flags and its stdin.
sleep 30 &
child=$!
for _ in $(seq 100); do
    [[ "$(readlink /proc/$child/exe)" == */sleep ]] && break
    sleep 0.01
done
echo "child-fds: $(ls /proc/$child/fd | sort -n | tr '\n' ' ')"
echo "stdout-flags: $(sed -n 's/^flags:[[:space:]]*//p' /proc/$child/fdinfo/1)"
echo "stdin: $(readlink /proc/$child/fd/0)"
kill $child
