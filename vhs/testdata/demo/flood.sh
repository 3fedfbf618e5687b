#!/usr/bin/env bash
# flood.sh: floods stdout with numbered lines ("  123456 flood …", yes(1)
# through nl(1)) until the file ~/flood.stop exists (a second job touches
# it) or 60 s have passed; then prints 50 fixed lines and "flood DONE" and
# exits 0. The fixed tail fills any pane, so once the flood is over the
# screen no longer depends on how many lines flowed.
set -u
stop=${FLOOD_STOP:-$HOME/flood.stop}
rm -f "$stop"
life=60
while [ ! -e "$stop" ] && ((SECONDS < life)); do
	yes 'flood flood flood flood flood flood flood flood' | head -n 5000
done | nl -ba -w7 -s' '
rm -f "$stop"
for ((i = 1; i <= 50; i++)); do
	printf 'after the flood: fixed line %02d\n' "$i"
done
echo "flood DONE"
