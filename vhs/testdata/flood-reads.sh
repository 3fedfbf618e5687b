#!/usr/bin/env bash
# flood-reads.sh BIN MODE [SECS]: 8 `yes N | nl` floods shown in a 160x48
# tmux pane, by jobdeck BIN (MODE=deck: its console and its session) or by
# a tmux server itself in 8 panes (MODE=tmux). Prints, over SECS (5)
# seconds, the CPU (% of one core), the MB read, CPU seconds per MB, and
# the read(2) calls a second and bytes per call of the processes that
# read the floods, from /proc/<pid>/stat and /proc/<pid>/io (rchar, syscr:
# every read of the process, the floods' nearly all). Linux only; needs
# tmux. Example, from the repository:
#   go build -o /tmp/jd . && bash vhs/testdata/flood-reads.sh /tmp/jd deck
#   bash vhs/testdata/flood-reads.sh /tmp/jd tmux
set -u
bin=$1 mode=$2 secs=${3:-5}
sock=flood-reads-$mode-$$
sd=$(mktemp -d)
export JOBDECK_SESSION_DIR=$sd
T="tmux -L $sock -f /dev/null"
if [ "$mode" = deck ]; then
  args=""; for i in 1 2 3 4 5 6 7 8; do args="$args 'yes $i | nl'"; done
  $T new -d -x 160 -y 48 -s f "JOBDECK_SESSION_DIR=$sd $bin --  $args; sleep 1"
else
  $T new -d -x 160 -y 48 -s f "yes 1 | nl"
  for i in 2 3 4 5 6 7 8; do $T split-window -t f "yes $i | nl"; $T select-layout -t f tiled >/dev/null; done
fi
$T set -g status off
sleep 3
pids=()
if [ "$mode" = deck ]; then
  for p in /proc/[0-9]*; do
    pid=${p#/proc/}
    [ -r "$p/environ" ] || continue; grep -qs . "$p/environ" 2>/dev/null || continue
    tr "\\0" "\\n" < "$p/environ" 2>/dev/null | grep -qx "JOBDECK_SESSION_DIR=$sd" || continue
    exe=$(readlink "$p/exe" 2>/dev/null) || continue
    [ "$exe" = "$(readlink -f "$bin")" ] || continue
    tr '\0' ' ' < "$p/cmdline" | grep -q __jobdeck_supervisor && continue
    pids+=("$pid")
  done
else
  pids=($($T display-message -p '#{pid}'))
fi
sample() { local c=0 r=0 s=0; for pid in "${pids[@]}"; do
  read -r -a st < <(sed 's/.*) //' /proc/$pid/stat); c=$((c + st[11] + st[12]))
  r=$((r + $(awk '/^rchar/{print $2}' /proc/$pid/io))); s=$((s + $(awk '/^syscr/{print $2}' /proc/$pid/io))); done
  echo "$c $r $s"; }
read -r c0 r0 s0 < <(sample); t0=$(date +%s%N)
sleep "$secs"
read -r c1 r1 s1 < <(sample); t1=$(date +%s%N)
el=$(( (t1 - t0) / 1000000 ))
$T kill-server 2>/dev/null
awk -v m="$mode" -v n="${#pids[@]}" -v c=$((c1-c0)) -v r=$((r1-r0)) -v s=$((s1-s0)) -v el=$el 'BEGIN{
  cpu=c*10/el*100; mb=r/1e6;
  printf "%s procs=%d cpu=%.0f%% MB=%.1f cpu-s/MB=%.4f reads/s=%.0f bytes/read=%.0f\n", m, n, cpu, mb, (c/100)/mb, s/(el/1000), r/s }'
sleep 2; rm -rf "$sd"
