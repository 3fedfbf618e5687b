#!/usr/bin/env bash
# gotest.sh: looks like a test run that fails (fixed text, the results in
# colour as test runners print them to a terminal); exits 1 at once.
set -u
g=$'\e[32m' r=$'\e[31m' d=$'\e[2m' o=$'\e[0m'
printf '=== RUN   TestParseConfig\n'
printf '%s--- PASS%s: TestParseConfig %s(0.00s)%s\n' "$g" "$o" "$d" "$o"
printf '=== RUN   TestServeIndex\n'
printf '%s--- PASS%s: TestServeIndex %s(0.01s)%s\n' "$g" "$o" "$d" "$o"
printf '=== RUN   TestServeAPI\n'
printf '    api_test.go:42: got 500, want 200\n'
printf '%s--- FAIL%s: TestServeAPI %s(0.02s)%s\n' "$r" "$o" "$d" "$o"
printf '%sFAIL%s\n' "$r" "$o"
printf '%sFAIL%s\texample.com/app/server\t0.031s\n' "$r" "$o"
printf '%sok%s  \texample.com/app/config\t0.004s\n' "$g" "$o"
exit 1
