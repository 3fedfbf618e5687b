#!/usr/bin/env bash
# ticker.sh [NAME [COUNT]]: prints "NAME tick 01" … "NAME tick COUNT", five
# lines a second, then "NAME: COUNT ticks, now waiting", and then stays
# alive and silent until 60 s have passed (a long-running job that has
# settled). Defaults: NAME ticker, COUNT 10.
set -u
name=${1:-ticker}
count=${2:-10}
life=60
for ((i = 1; i <= count; i++)); do
	printf '%s tick %02d\n' "$name" "$i"
	sleep 0.2
done
printf '%s: %d ticks, now waiting\n' "$name" "$count"
exec sleep "$((life > SECONDS ? life - SECONDS : 1))"
