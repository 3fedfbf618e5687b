#!/usr/bin/env bash
# hostile.sh [--inert]: output that attacks the terminal that shows it, one
# labelled line per attack, on stdout and stderr; last line "hostile DONE".
# A job console must show all of it inert. With --inert the same labels come
# without their escape sequences (the harmless control run).
#
# Kinds: terminal reset (RIS, DECSTR), window title (OSC 0/1/2, title
# report), clipboard (OSC 52, both terminators), hyperlink (OSC 8), cwd
# (OSC 7), colours (OSC 4/11 set and query), alternate screen (?1049h,
# ?47h), mouse modes (?1000h ?1002h ?1003h ?1006h ?1015h), focus events and
# bracketed paste, cursor and wrap modes, scroll region, screen clears,
# queries whose answers a terminal types back (DSR 6n, DA1, DA2, XTVERSION,
# DECRQSS, DECRQM, window reports), DEC line drawing (ESC ( 0, SO), C1 CSI.
set -u
inert=0
[ "${1:-}" = --inert ] && inert=1
e=$'\033'
bel=$'\a'
st="$e\\"
clip=$(printf 'owned by hostile.sh' | base64)
say() { # label sequence [stream]
	local seq=$2
	[ "$inert" = 1 ] && seq=""
	if [ "${3:-out}" = err ]; then
		printf 'hostile %s: [%s]\n' "$1" "$seq" >&2
	else
		printf 'hostile %s: [%s]\n' "$1" "$seq"
	fi
}
say "full reset RIS" "${e}c"
say "soft reset DECSTR" "${e}[!p"
say "title OSC 0" "${e}]0;HOSTILE TITLE${bel}"
say "title OSC 2" "${e}]2;HOSTILE TITLE 2${st}"
say "icon name OSC 1" "${e}]1;HOSTILE ICON${bel}"
say "clipboard OSC 52 BEL" "${e}]52;c;${clip}${bel}"
say "clipboard OSC 52 ST" "${e}]52;p;${clip}${st}"
say "hyperlink OSC 8" "${e}]8;;https://hostile.invalid/${st}link${e}]8;;${st}"
say "cwd OSC 7" "${e}]7;file://hostile.invalid/tmp${bel}"
say "palette OSC 4" "${e}]4;2;rgb:ff/00/ff${bel}"
say "background OSC 11" "${e}]11;#00ff00${bel}"
say "alternate screen 1049h" "${e}[?1049h"
say "alternate screen 47h" "${e}[?47h"
say "mouse on" "${e}[?1000h${e}[?1002h${e}[?1003h${e}[?1006h${e}[?1015h"
say "focus events 1004h" "${e}[?1004h"
say "bracketed paste off" "${e}[?2004l"
say "cursor keys DECCKM" "${e}[?1h"
say "cursor hidden" "${e}[?25l"
say "autowrap off" "${e}[?7l"
say "scroll region" "${e}[3;8r"
say "clear screen" "${e}[2J${e}[H"
say "clear scrollback" "${e}[3J"
say "query DSR 6n" "${e}[6n"
say "query DA1 DA2 XTVERSION" "${e}[c${e}[>c${e}[>0q"
say "query DECRQM 2004" "${e}[?2004\$p"
say "query DECRQSS" "${e}P\$qm${st}"
say "query background OSC 11" "${e}]11;?${bel}"
say "query title and size" "${e}[21t${e}[14t${e}[18t"
say "window resize" "${e}[8;10;30t"
say "line drawing ESC ( 0" "${e}(0lqqqk${e}(B"
say "line drawing SO" $'\x0e'"lqqqk"$'\x0f'
say "C1 CSI U+009B" $'\xc2\x9b'"31mC1-red"
say "title on stderr" "${e}]2;HOSTILE STDERR TITLE${bel}" err
say "clipboard on stderr" "${e}]52;c;${clip}${bel}" err
say "alternate screen on stderr" "${e}[?1049h${e}[2J" err
say "query on stderr" "${e}[6n${e}[c" err
echo "hostile DONE"
