#!/usr/bin/env bash
# colours.sh: coloured lines (SGR) on stdout; then, once the file
# ~/colours.next exists (a second job touches it), lines on stderr, one of
# them coloured; then it exits 2. The gate makes the order on screen fixed:
# stdout and stderr are read by different readers, so lines written close
# together on both could interleave either way. Gives up after 60 s.
set -u
gate=${COLOURS_GATE:-$HOME/colours.next}
rm -f "$gate"
e=$'\033'
printf '%s\n' "${e}[31mred${e}[0m ${e}[32mgreen${e}[0m ${e}[34mblue${e}[0m ${e}[33myellow${e}[0m"
printf '%s\n' "${e}[1mbold${e}[0m ${e}[4munderline${e}[0m ${e}[7mreverse${e}[0m ${e}[2mdim${e}[0m"
printf '%s\n' "${e}[38;5;208m256-colour orange${e}[0m ${e}[38;2;255;105;180mtruecolour pink${e}[0m"
printf '%s\n' "${e}[97;41m white on red ${e}[0m then an unclosed ${e}[36mcyan"
printf '%s\n' "plain: the pane closed the cyan at the end of the line above"
printf '%s\n' "colours: stdout done, waiting for ~/colours.next"
for ((i = 0; i < 600; i++)); do
	[ -e "$gate" ] && break
	sleep 0.1
done
rm -f "$gate"
printf '%s\n' "warning: this line went to stderr" >&2
printf '%s\n' "${e}[35merror: coloured stderr keeps its colour${e}[0m" >&2
printf '%s\n' "colours: exiting 2" >&2
exit 2
