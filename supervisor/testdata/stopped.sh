#!/usr/bin/env bash
# stopped.sh — a child stopped with SIGSTOP: SIGTERM stays pending until it
# gets SIGCONT, so a stop must send both.
sleep 60 &
kill -STOP $!
echo READY
wait
